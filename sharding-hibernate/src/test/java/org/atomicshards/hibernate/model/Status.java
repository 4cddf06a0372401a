package org.atomicshards.hibernate.model;

import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.TimeOrderedUuidId;

/** Seed 004's Status: a member carrying the key in its foreign key to the User. */
@Entity
public class Status {

    @Id
    @TimeOrderedUuidId
    private UUID id;

    private String text;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "user_id", updatable = false)
    @ShardKey
    private User user;

    protected Status() {
    }

    public Status(User user, String text) {
        this.user = user;
        this.text = text;
    }

    public UUID getId() {
        return id;
    }

    public String getText() {
        return text;
    }

    public User getUser() {
        return user;
    }

    public void setUser(User user) {
        this.user = user;
    }
}
