package org.atomicshards.hibernate.collections;

import java.util.HashSet;
import java.util.Set;

import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Table;

import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** A unit root keyed by its id, with an element collection: its collection table carries the key as the owner's id. */
@Entity
@Table(name = "team")
@AtomicUnit
public class Team {

    @Id
    @ShardKey
    private Long id;

    private String name;

    @ElementCollection
    @CollectionTable(name = "team_tag", joinColumns = @JoinColumn(name = "team_id"))
    @Column(name = "tag")
    private Set<String> tags = new HashSet<>();

    protected Team() {
    }

    public Team(Long id, String name) {
        this.id = id;
        this.name = name;
    }

    public Long getId() {
        return id;
    }

    public Set<String> getTags() {
        return tags;
    }
}
