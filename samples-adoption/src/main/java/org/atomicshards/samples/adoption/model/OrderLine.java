package org.atomicshards.samples.adoption.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.SequenceBlockId;

/**
 * Two foreign keys from the root (line, order, customer): the one-database schema had no customer column here; the
 * sharding plan adds {@code customer_id} and fills it through the order.
 */
@Entity
@Table(name = "order_line")
public class OrderLine {

    @Id
    @SequenceBlockId
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "order_id", nullable = false, updatable = false)
    private PurchaseOrder order;

    @ShardKey
    @Column(name = "customer_id", nullable = false, updatable = false)
    private Long customerId;

    private String item;

    protected OrderLine() {
    }

    public OrderLine(PurchaseOrder order, Long customerId, String item) {
        this.order = order;
        this.customerId = customerId;
        this.item = item;
    }

    public Long getId() {
        return id;
    }
}
