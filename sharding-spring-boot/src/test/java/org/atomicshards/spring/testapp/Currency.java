package org.atomicshards.spring.testapp;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import org.atomicshards.annotations.ReferenceData;

@Entity
@ReferenceData
public class Currency {

    @Id
    private String code;

    protected Currency() {
    }

    public Currency(String code) {
        this.code = code;
    }

    public String getCode() {
        return code;
    }
}
