package org.atomicshards.samples.adoption.model;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ReferenceData;

/** A reference table of the one-database shop: on every shard once sharded. */
@Entity
@Table(name = "currency")
@ReferenceData
public class Currency {

    @Id
    private String code;

    private String name;

    protected Currency() {
    }
}
