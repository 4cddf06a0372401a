package org.atomicshards.hibernate.legacy;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.SnowflakeId;

/** A root whose new ids are Snowflake ids, over a table whose stored ids some other system made very large. */
@Entity
@Table(name = "ticket")
@AtomicUnit
public class Ticket {

    @Id
    @ShardKey
    @SnowflakeId
    private Long id;

    private String subject;

    protected Ticket() {
    }

    public Ticket(String subject) {
        this.subject = subject;
    }

    public Long getId() {
        return id;
    }
}
