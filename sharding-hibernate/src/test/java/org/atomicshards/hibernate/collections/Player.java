package org.atomicshards.hibernate.collections;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinTable;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.Table;

import org.atomicshards.annotations.ShardKey;

/**
 * A member with its own id and the key in a plain column, an ordered element collection and a many-to-many to
 * reference data: both collection tables reference the player's id, not the key.
 */
@Entity
@Table(name = "player")
public class Player {

    @Id
    private Long id;

    @ShardKey
    @Column(name = "team_id")
    private Long teamId;

    @ElementCollection
    @CollectionTable(name = "player_nickname", joinColumns = @JoinColumn(name = "player_id"))
    @OrderColumn(name = "position")
    @Column(name = "nickname")
    private List<String> nicknames = new ArrayList<>();

    @ManyToMany
    @JoinTable(name = "player_badge", joinColumns = @JoinColumn(name = "player_id"),
            inverseJoinColumns = @JoinColumn(name = "badge_code"))
    private Set<Badge> badges = new HashSet<>();

    protected Player() {
    }

    public Player(Long id, Long teamId) {
        this.id = id;
        this.teamId = teamId;
    }

    public List<String> getNicknames() {
        return nicknames;
    }

    public Set<Badge> getBadges() {
        return badges;
    }
}
