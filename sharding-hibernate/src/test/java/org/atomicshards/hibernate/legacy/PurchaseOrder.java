package org.atomicshards.hibernate.legacy;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.SequenceBlockId;

/** One foreign key away from the root: the key travels in its foreign key to the customer. */
@Entity
@Table(name = "purchase_order", indexes = @Index(name = "purchase_order_customer", columnList = "customer_id, id"))
public class PurchaseOrder {

    @Id
    @SequenceBlockId
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "customer_id", nullable = false, updatable = false)
    @ShardKey
    private Customer customer;

    private String note;

    protected PurchaseOrder() {
    }

    public PurchaseOrder(Customer customer, String note) {
        this.customer = customer;
        this.note = note;
    }

    public Long getId() {
        return id;
    }
}
