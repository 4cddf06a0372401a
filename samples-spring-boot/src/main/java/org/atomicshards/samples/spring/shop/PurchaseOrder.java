package org.atomicshards.samples.spring.shop;

import java.time.LocalDate;

import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.SnowflakeId;

/**
 * A member of the customer's unit: the key travels in the association to the root. Its Snowflake id encodes the
 * unit's virtual shard, so {@code findById} routes from the id alone.
 */
@Entity
public class PurchaseOrder {

    @Id
    @SnowflakeId
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(updatable = false)
    @ShardKey
    private Customer customer;

    @Enumerated(EnumType.STRING)
    private OrderStatus status;

    private long totalCents;

    private LocalDate placedOn;

    protected PurchaseOrder() {
    }

    public PurchaseOrder(Customer customer, OrderStatus status, long totalCents, LocalDate placedOn) {
        this.customer = customer;
        this.status = status;
        this.totalCents = totalCents;
        this.placedOn = placedOn;
    }

    /** A copy with the same id, for loading the same rows into another database. */
    public PurchaseOrder copyFor(Customer owner) {
        PurchaseOrder copy = new PurchaseOrder(owner, status, totalCents, placedOn);
        copy.id = id;
        return copy;
    }

    public Long getId() {
        return id;
    }

    public Customer getCustomer() {
        return customer;
    }

    public OrderStatus getStatus() {
        return status;
    }

    public void setStatus(OrderStatus status) {
        this.status = status;
    }

    public long getTotalCents() {
        return totalCents;
    }

    public LocalDate getPlacedOn() {
        return placedOn;
    }

    @Override
    public String toString() {
        return "PurchaseOrder#" + id + "[" + status + ", " + totalCents + ", " + placedOn + "]";
    }
}
