package org.atomicshards.samples.spring.shop;

import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.TimeOrderedUuidId;

/**
 * A member of the customer's unit carrying the key as a plain column. Its UUID does not encode the key, so a
 * {@code findById} asks the shards which one holds it.
 */
@Entity
public class LoyaltyEvent {

    @Id
    @TimeOrderedUuidId
    private UUID id;

    @ShardKey
    @Column(updatable = false, nullable = false)
    private Long customerId;

    private int points;

    private String reason;

    protected LoyaltyEvent() {
    }

    public LoyaltyEvent(Long customerId, int points, String reason) {
        this.customerId = customerId;
        this.points = points;
        this.reason = reason;
    }

    public UUID getId() {
        return id;
    }

    public Long getCustomerId() {
        return customerId;
    }

    public int getPoints() {
        return points;
    }

    public String getReason() {
        return reason;
    }
}
