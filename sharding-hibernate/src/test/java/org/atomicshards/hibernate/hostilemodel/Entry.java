package org.atomicshards.hibernate.hostilemodel;

import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;

/** A member carrying the account's String key in its foreign key. */
@Entity
@Table(name = "hostile_entry")
public class Entry {

    @Id
    private UUID id;

    @ManyToOne
    @JoinColumn(name = "account_code", updatable = false)
    @ShardKey
    private Account account;

    private String text;

    protected Entry() {
    }

    public Entry(Account account, String text) {
        this.id = UUID.randomUUID();
        this.account = account;
        this.text = text;
    }

    public UUID getId() {
        return id;
    }

    public String getText() {
        return text;
    }
}
