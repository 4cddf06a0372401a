package org.atomicshards.hibernate.badmodel;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** A valid root. */
@Entity
@AtomicUnit
public class Account {
    @Id
    @ShardKey
    Long id;
}
