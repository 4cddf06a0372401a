package org.atomicshards.spring.indexapp;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardIndex;
import org.atomicshards.annotations.ShardKey;

/** A unit found by its e-mail address (unique) and its city. */
@Entity
@AtomicUnit
public class Member {

    @Id
    @ShardKey
    private Long id;

    @ShardIndex(unique = true)
    private String email;

    @ShardIndex
    private String city;

    protected Member() {
    }

    public Member(Long id, String email, String city) {
        this.id = id;
        this.email = email;
        this.city = city;
    }

    public Long getId() {
        return id;
    }

    public String getEmail() {
        return email;
    }

    public String getCity() {
        return city;
    }
}
