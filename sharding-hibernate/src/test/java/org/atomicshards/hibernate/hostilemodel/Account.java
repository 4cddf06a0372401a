package org.atomicshards.hibernate.hostilemodel;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** A root keyed by a String of up to 400 characters (its key column, and its members' foreign keys). */
@Entity
@Table(name = "hostile_account")
@AtomicUnit
public class Account {

    @Id
    @ShardKey
    @Column(length = 400)
    private String code;

    private String label;

    protected Account() {
    }

    public Account(String code, String label) {
        this.code = code;
        this.label = label;
    }

    public String getCode() {
        return code;
    }

    public String getLabel() {
        return label;
    }
}
