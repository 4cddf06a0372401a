package org.atomicshards.hibernate.embeddedmodel;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import org.atomicshards.annotations.ShardKey;

/** A member with an {@code @IdClass} whose key is one of the id attributes. */
@Entity
@IdClass(SeatId.class)
public class Seat {
    @Id
    @ShardKey
    private String tenantId;

    @Id
    private int number;

    protected Seat() {
    }

    public Seat(String tenantId, int number) {
        this.tenantId = tenantId;
        this.number = number;
    }
}
