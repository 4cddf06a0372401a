package org.atomicshards.hibernate.indexmodel;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardIndex;
import org.atomicshards.annotations.ShardKey;
import org.hibernate.annotations.DynamicUpdate;

/** A unit whose updates write only the changed columns ({@code @DynamicUpdate}), with a unique index. */
@Entity
@Table(name = "ix_profile")
@AtomicUnit
@DynamicUpdate
public class Profile {

    @Id
    @ShardKey
    private Long id;

    @ShardIndex(unique = true)
    private String handle;

    private String bio;

    protected Profile() {
    }

    public Profile(Long id, String handle, String bio) {
        this.id = id;
        this.handle = handle;
        this.bio = bio;
    }

    public Long getId() {
        return id;
    }

    public String getHandle() {
        return handle;
    }

    public void setHandle(String handle) {
        this.handle = handle;
    }

    public void setBio(String bio) {
        this.bio = bio;
    }
}
