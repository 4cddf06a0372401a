package org.atomicshards.samples.model;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** The root of the unit; its id is the shard key, allocated by the library in blocks from the shard directory. */
@Entity
@Table(name = "app_user")
@AtomicUnit
public class User {

    @Id
    @ShardKey
    private Long id;

    @Column(length = 50, nullable = false)
    private String email;

    @ManyToOne(fetch = FetchType.LAZY)
    private Country country;

    @OneToMany(mappedBy = "user")
    private List<Status> statuses = new ArrayList<>();

    protected User() {
    }

    public User(String email, Country country) {
        this.email = email;
        this.country = country;
    }

    public Long getId() {
        return id;
    }

    public String getEmail() {
        return email;
    }

    /** A new address; the unit's key (the id) never changes. */
    public void changeEmail(String newEmail) {
        this.email = newEmail;
    }

    public Country getCountry() {
        return country;
    }

    public List<Status> getStatuses() {
        return statuses;
    }
}
