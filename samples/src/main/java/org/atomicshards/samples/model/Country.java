package org.atomicshards.samples.model;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import org.atomicshards.annotations.ReferenceData;

/** Reference data: the same rows on every shard, so users join to their country locally. */
@Entity
@ReferenceData
public class Country {

    @Id
    private String code;

    private String name;

    protected Country() {
    }

    public Country(String code, String name) {
        this.code = code;
        this.name = name;
    }

    public String getCode() {
        return code;
    }

    public String getName() {
        return name;
    }
}
