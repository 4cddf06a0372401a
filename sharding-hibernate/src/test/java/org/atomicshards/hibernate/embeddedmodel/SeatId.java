package org.atomicshards.hibernate.embeddedmodel;

import java.io.Serializable;
import java.util.Objects;

/** The id class of {@link Seat}. */
public class SeatId implements Serializable {
    private static final long serialVersionUID = 1L;

    private String tenantId;
    private int number;

    protected SeatId() {
    }

    public SeatId(String tenantId, int number) {
        this.tenantId = tenantId;
        this.number = number;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SeatId other && tenantId.equals(other.tenantId) && number == other.number;
    }

    @Override
    public int hashCode() {
        return Objects.hash(tenantId, number);
    }
}
