package org.atomicshards.samples.adoption.model;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.SequenceBlockId;

/** One foreign key from the root: its key is its customer's id. */
@Entity
@Table(name = "purchase_order")
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
