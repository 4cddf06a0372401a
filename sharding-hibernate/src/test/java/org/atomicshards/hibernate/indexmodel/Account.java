package org.atomicshards.hibernate.indexmodel;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.Table;

import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardIndex;
import org.atomicshards.annotations.ShardKey;

/** A unit root with a unique index (its e-mail address) and a non-unique one (its city). */
@Entity
@Table(name = "ix_account")
@AtomicUnit
public class Account {

    @Id
    @ShardKey
    private Long id;

    @ShardIndex(unique = true)
    private String email;

    @ShardIndex
    private String city;

    private int score;

    @OneToMany(mappedBy = "account")
    private List<Device> devices = new ArrayList<>();

    protected Account() {
    }

    public Account(Long id, String email, String city, int score) {
        this.id = id;
        this.email = email;
        this.city = city;
        this.score = score;
    }

    public Long getId() {
        return id;
    }

    public String getEmail() {
        return email;
    }

    public void setEmail(String email) {
        this.email = email;
    }

    public String getCity() {
        return city;
    }

    public void setCity(String city) {
        this.city = city;
    }

    public int getScore() {
        return score;
    }

    public void setScore(int score) {
        this.score = score;
    }

    @Override
    public String toString() {
        return "Account " + id;
    }
}
