package org.atomicshards.hibernate.joined;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A subclass joined through the base table's id column name. */
@Entity
@Table(name = "film")
public class Film extends Item {

    private int minutes;

    protected Film() {
    }

    public Film(Long id, Long shopId, String title, int minutes) {
        super(id, shopId, title);
        this.minutes = minutes;
    }

    public int getMinutes() {
        return minutes;
    }
}
