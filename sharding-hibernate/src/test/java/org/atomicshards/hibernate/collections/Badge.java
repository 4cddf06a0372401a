package org.atomicshards.hibernate.collections;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

import org.atomicshards.annotations.ReferenceData;

/** Reference data a player's badges point at. */
@Entity
@ReferenceData
public class Badge {

    @Id
    private String code;

    protected Badge() {
    }

    public Badge(String code) {
        this.code = code;
    }

    public String getCode() {
        return code;
    }
}
