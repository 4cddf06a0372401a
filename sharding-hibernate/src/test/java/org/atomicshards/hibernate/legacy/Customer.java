package org.atomicshards.hibernate.legacy;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.SequenceBlockId;

/**
 * The root of a model written for one database (its ids came from an IDENTITY column) after its migration to shards:
 * the same table, ids now from the catalog's sequence blocks.
 */
@Entity
@Table(name = "customer")
@AtomicUnit
public class Customer {

    @Id
    @ShardKey
    @SequenceBlockId
    private Long id;

    private String name;

    protected Customer() {
    }

    public Customer(String name) {
        this.name = name;
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }
}
