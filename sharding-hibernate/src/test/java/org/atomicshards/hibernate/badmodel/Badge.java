package org.atomicshards.hibernate.badmodel;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

import org.atomicshards.annotations.ReferenceData;
import org.atomicshards.annotations.ShardIndex;

/** Breaks SHARD-026: an index on reference data, which every shard holds whole. */
@Entity
@ReferenceData
public class Badge {

    @Id
    private String code;

    @ShardIndex
    private String label;

    protected Badge() {
    }
}
