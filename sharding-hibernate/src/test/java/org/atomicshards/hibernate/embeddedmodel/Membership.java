package org.atomicshards.hibernate.embeddedmodel;

import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;

/** A member whose key sits inside its embedded id. */
@Entity
public class Membership {
    @EmbeddedId
    private MembershipId id;

    private String role;

    protected Membership() {
    }

    public Membership(MembershipId id, String role) {
        this.id = id;
        this.role = role;
    }

    public String getRole() {
        return role;
    }
}
