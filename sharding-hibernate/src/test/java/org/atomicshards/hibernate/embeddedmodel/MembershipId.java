package org.atomicshards.hibernate.embeddedmodel;

import java.io.Serializable;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import org.atomicshards.annotations.ShardKey;

/** An embedded id that carries the tenant's key. */
@Embeddable
public class MembershipId implements Serializable {
    private static final long serialVersionUID = 1L;

    @ShardKey
    @Column(updatable = false, length = 64) // shorter than the other key columns: EmbeddedKeysTest checks the limit
    private String tenantId;

    private String userName;

    protected MembershipId() {
    }

    public MembershipId(String tenantId, String userName) {
        this.tenantId = tenantId;
        this.userName = userName;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MembershipId other && tenantId.equals(other.tenantId) && userName.equals(other.userName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tenantId, userName);
    }
}
