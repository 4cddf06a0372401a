package org.atomicshards.hibernate.legacy;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ReferenceData;

/** A reference table of the one-database model: copied to every shard. */
@Entity
@Table(name = "currency")
@ReferenceData
public class Currency {

    @Id
    private String code;

    private String name;

    protected Currency() {
    }

    public Currency(String code, String name) {
        this.code = code;
        this.name = name;
    }

    public String getCode() {
        return code;
    }
}
