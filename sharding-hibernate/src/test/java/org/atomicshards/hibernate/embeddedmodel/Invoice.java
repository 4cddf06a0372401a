package org.atomicshards.hibernate.embeddedmodel;

import java.util.UUID;

import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import org.atomicshards.hibernate.id.TimeOrderedUuidId;

/** A member whose key sits inside an embedded value. */
@Entity
public class Invoice {
    @Id
    @TimeOrderedUuidId
    private UUID id;

    @Embedded
    private BillingRef ref;

    protected Invoice() {
    }

    public Invoice(BillingRef ref) {
        this.ref = ref;
    }

    public UUID getId() {
        return id;
    }

    public BillingRef getRef() {
        return ref;
    }
}
