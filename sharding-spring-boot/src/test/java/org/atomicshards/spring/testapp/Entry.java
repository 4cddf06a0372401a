package org.atomicshards.spring.testapp;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.SnowflakeId;

@Entity
public class Entry {

    @Id
    @SnowflakeId
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @ShardKey
    private Account account;

    private long amount;

    protected Entry() {
    }

    public Entry(Account account, long amount) {
        this.account = account;
        this.amount = amount;
    }

    public Long getId() {
        return id;
    }

    public long getAmount() {
        return amount;
    }
}
