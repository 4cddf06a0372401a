package org.atomicshards.spring.testapp;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

@Entity
@AtomicUnit
@NamedQuery(name = "Account.findNamedOwner", query = "select a from Account a where a.owner = :owner order by a.id")
public class Account {

    @Id
    @ShardKey
    private Long id;

    private String owner;

    protected Account() {
    }

    public Account(Long id, String owner) {
        this.id = id;
        this.owner = owner;
    }

    public Long getId() {
        return id;
    }

    public String getOwner() {
        return owner;
    }

    public void setOwner(String owner) {
        this.owner = owner;
    }
}
