package org.atomicshards.benchmarks.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/**
 * The root of the benchmark's atomic unit: a customer, keyed (and sharded) by its id. The same class is mapped by
 * every side of every comparison, so all sides read and write identical rows (the Atomic Shards annotations are
 * inert for plain Hibernate and ShardingSphere).
 */
@Entity
@AtomicUnit
@Table(name = "customers")
public class Customer {

    @Id
    @ShardKey
    private Long id;

    @Column(name = "name", nullable = false, length = 64)
    private String name;

    @Column(name = "order_count", nullable = false)
    private int orderCount;

    @Column(name = "last_order_cents", nullable = false)
    private long lastOrderCents;

    protected Customer() {
    }

    public Customer(long id, String name) {
        this.id = id;
        this.name = name;
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public int getOrderCount() {
        return orderCount;
    }

    public long getLastOrderCents() {
        return lastOrderCents;
    }

    /** The one attribute change of the benchmark's unit of work. */
    public void recordOrder(long amountCents) {
        orderCount++;
        lastOrderCents = amountCents;
    }
}
