package org.atomicshards.samples.model;

import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.TimeOrderedUuidId;

/**
 * A photo; the key is a plain column holding the User's id, indexed (a foreign key would bring its own index on H2
 * and MariaDB): a move reads and deletes a unit's rows by it.
 */
@Entity
@Table(indexes = @Index(name = "photo_user_id", columnList = "user_id"))
public class Photo {

    @Id
    @TimeOrderedUuidId
    private UUID id;

    @Column(length = 250, nullable = false)
    private String blobUrl;

    @ShardKey
    @Column(name = "user_id", nullable = false, updatable = false)
    private Long userId;

    protected Photo() {
    }

    public Photo(Long userId, String blobUrl) {
        this.userId = userId;
        this.blobUrl = blobUrl;
    }

    public UUID getId() {
        return id;
    }

    public String getBlobUrl() {
        return blobUrl;
    }

    public Long getUserId() {
        return userId;
    }
}
