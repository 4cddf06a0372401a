package org.atomicshards.benchmarks.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;

/**
 * A member of the customer's atomic unit: it carries the customer's key in a plain column that is never updated
 * (ShardingSphere rejects an UPDATE that repeats its sharding column, so the peer needs {@code updatable = false};
 * every side uses the same mapping). Ids are assigned by the benchmark, the same way on every side.
 */
@Entity
@Table(name = "purchase_orders")
public class PurchaseOrder {

    @Id
    private Long id;

    @ShardKey
    @Column(name = "customer_id", nullable = false, updatable = false)
    private Long customerId;

    @Column(name = "amount_cents", nullable = false)
    private long amountCents;

    @Column(name = "placed_at", nullable = false)
    private long placedAt;

    protected PurchaseOrder() {
    }

    public PurchaseOrder(long id, long customerId, long amountCents, long placedAt) {
        this.id = id;
        this.customerId = customerId;
        this.amountCents = amountCents;
        this.placedAt = placedAt;
    }

    public Long getId() {
        return id;
    }

    public Long getCustomerId() {
        return customerId;
    }

    public long getAmountCents() {
        return amountCents;
    }

    public long getPlacedAt() {
        return placedAt;
    }
}
