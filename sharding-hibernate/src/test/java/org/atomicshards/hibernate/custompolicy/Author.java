package org.atomicshards.hibernate.custompolicy;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** A root keyed by a String handle, routed by a user's selection policy. */
@Entity
@Table(name = "cp_author")
@AtomicUnit
public class Author {

    @Id
    @ShardKey
    @Column(name = "id", length = 64)
    private String handle;

    private String name;

    protected Author() {
    }

    public Author(String handle, String name) {
        this.handle = handle;
        this.name = name;
    }

    public String getHandle() {
        return handle;
    }

    public String getName() {
        return name;
    }
}
