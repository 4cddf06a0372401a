package org.atomicshards.hibernate.model;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** Seed 004's User: the root of the unit, keyed by its id. */
@Entity
@Table(name = "app_user")
@AtomicUnit
public class User {

    @Id
    @ShardKey
    private Long id;

    private String email;

    @OneToMany(mappedBy = "user")
    private List<Status> statuses = new ArrayList<>();

    protected User() {
    }

    public User(Long id, String email) {
        this.id = id;
        this.email = email;
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

    public List<Status> getStatuses() {
        return statuses;
    }
}
