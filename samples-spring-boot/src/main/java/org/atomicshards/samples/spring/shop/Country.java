package org.atomicshards.samples.spring.shop;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import org.atomicshards.annotations.ReferenceData;

/** Reference data: small, slow-changing, copied to every shard so that joins stay local. */
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
