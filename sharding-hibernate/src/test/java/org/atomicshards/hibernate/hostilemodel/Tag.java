package org.atomicshards.hibernate.hostilemodel;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** A root keyed by a String with Hibernate's default column length (255). */
@Entity
@Table(name = "hostile_tag")
@AtomicUnit
public class Tag {

    @Id
    @ShardKey
    private String name;

    protected Tag() {
    }

    public Tag(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }
}
