package org.atomicshards.samples.model;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.SnowflakeId;

/** A status update; the key travels in the foreign key to its User. */
@Entity
@Table(indexes = @Index(name = "status_user_id", columnList = "user_id")) // PostgreSQL does not index a foreign key
public class Status {

    @Id
    @SnowflakeId
    private Long id;

    @Column(length = 142, nullable = false)
    private String text;

    private Instant time;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "user_id", updatable = false)
    @ShardKey
    private User user;

    protected Status() {
    }

    public Status(User user, String text, Instant time) {
        this.user = user;
        this.text = text;
        this.time = time;
    }

    public Long getId() {
        return id;
    }

    public String getText() {
        return text;
    }

    public User getUser() {
        return user;
    }
}
