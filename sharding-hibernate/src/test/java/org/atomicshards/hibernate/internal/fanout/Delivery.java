package org.atomicshards.hibernate.internal.fanout;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/** Test model: an embedded value of {@link ClientOrder} (columns of the order's own row). */
@Embeddable
public class Delivery {

    @Column(name = "zone")
    private Integer zone;

    @Column(name = "slot")
    private Integer slot;

    protected Delivery() {
    }

    Delivery(Integer zone, Integer slot) {
        this.zone = zone;
        this.slot = slot;
    }
}
