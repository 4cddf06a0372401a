package org.atomicshards.hibernate.custompolicy;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;

/** A member of the author's unit, carrying the handle in a plain column. */
@Entity
@Table(name = "cp_post")
public class Post {

    @Id
    private Long id;

    @ShardKey
    @Column(name = "author_handle", length = 64, updatable = false)
    private String authorHandle;

    private int likes;

    protected Post() {
    }

    public Post(Long id, String authorHandle, int likes) {
        this.id = id;
        this.authorHandle = authorHandle;
        this.likes = likes;
    }

    public Long getId() {
        return id;
    }

    public String getAuthorHandle() {
        return authorHandle;
    }

    public int getLikes() {
        return likes;
    }
}
