package org.atomicshards.hibernate.internal.fanout;

import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;

/**
 * Test model: a member of the client's unit (the key travels in the foreign key to the client), with a to-one to
 * reference data and an embedded value, for ORDER BY under SELECT DISTINCT.
 */
@Entity
@Table(name = "client_order")
public class ClientOrder {

    @Id
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "client_id", nullable = false, updatable = false)
    @ShardKey
    private Client client;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "product_id")
    private Product product;

    @Column(name = "amount", nullable = false)
    private int amount;

    @Embedded
    private Delivery delivery;

    protected ClientOrder() {
    }

    ClientOrder(long id, Client client, Product product, int amount, Delivery delivery) {
        this.id = id;
        this.client = client;
        this.product = product;
        this.amount = amount;
        this.delivery = delivery;
    }

    public Long getId() {
        return id;
    }

    @Override
    public String toString() {
        return "ClientOrder#" + id;
    }
}
