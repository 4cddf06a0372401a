package org.atomicshards.hibernate.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.SnowflakeId;

/** Seed 004's Photo: a member carrying the key as a plain column; its Snowflake id encodes the unit's virtual shard. */
@Entity
public class Photo {

    @Id
    @SnowflakeId
    private Long id;

    private String blobUrl;

    @ShardKey
    @Column(name = "user_id", nullable = true)
    private Long userId;

    protected Photo() {
    }

    public Photo(Long userId, String blobUrl) {
        this.userId = userId;
        this.blobUrl = blobUrl;
    }

    public Long getId() {
        return id;
    }

    public String getBlobUrl() {
        return blobUrl;
    }

    public void setBlobUrl(String blobUrl) {
        this.blobUrl = blobUrl;
    }

    public Long getUserId() {
        return userId;
    }

    public void setUserId(Long userId) {
        this.userId = userId;
    }
}
