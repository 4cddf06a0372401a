package org.atomicshards.hibernate.embeddedmodel;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** A root keyed by a String. */
@Entity
@AtomicUnit
public class Tenant {
    @Id
    @ShardKey
    private String id;

    protected Tenant() {
    }

    public Tenant(String id) {
        this.id = id;
    }

    public String getId() {
        return id;
    }
}
