package org.atomicshards.hibernate.internal.fanout.docs;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** The root entity of the user guide's fan-out example. */
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
