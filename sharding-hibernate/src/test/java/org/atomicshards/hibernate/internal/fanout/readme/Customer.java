package org.atomicshards.hibernate.internal.fanout.readme;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** The README example's root entity. */
@Entity
@AtomicUnit
public class Customer {

    @Id
    @ShardKey
    private Long id;

    private String name;

    protected Customer() {
    }

    public Customer(Long id, String name) {
        this.id = id;
        this.name = name;
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }
}
