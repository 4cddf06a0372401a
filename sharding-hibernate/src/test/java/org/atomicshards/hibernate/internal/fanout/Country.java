package org.atomicshards.hibernate.internal.fanout;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ReferenceData;

/** Test model: reference data, the same rows on every shard. */
@Entity
@Table(name = "country")
@ReferenceData
public class Country {

    @Id
    @Column(name = "code", length = 2)
    private String code;

    @Column(name = "name", length = 50, nullable = false)
    private String name;

    protected Country() {
    }

    public String getCode() {
        return code;
    }

    public String getName() {
        return name;
    }
}
