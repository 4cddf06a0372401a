package org.atomicshards.hibernate.internal.fanout;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ReferenceData;

/** Test model: reference data (the same rows on every shard) that orders point to. */
@Entity
@Table(name = "product")
@ReferenceData
public class Product {

    @Id
    private Long id;

    @Column(name = "sku", nullable = false, length = 20)
    private String sku;

    @Column(name = "weight", nullable = false)
    private int weight;

    protected Product() {
    }

    Product(long id, String sku, int weight) {
        this.id = id;
        this.sku = sku;
        this.weight = weight;
    }

    public Long getId() {
        return id;
    }
}
