package org.atomicshards.samples.adoption.model;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.SequenceBlockId;

/** The root: its ids came from an IDENTITY column, now from the catalog's sequence blocks above the stored ones. */
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
}
