package org.atomicshards.hibernate.internal.fanout;

import java.math.BigDecimal;
import java.time.LocalDate;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** Test model: the root of an atomic unit, keyed by its id. */
@Entity
@Table(name = "account")
@AtomicUnit
public class Account {

    @Id
    @ShardKey
    private Long id;

    @Column(name = "region", length = 20)
    private String region;

    @Column(name = "tier")
    private Integer tier;

    @Column(name = "balance", precision = 12, scale = 2)
    private BigDecimal balance;

    @Column(name = "score", nullable = false)
    @org.atomicshards.annotations.ShardIndex
    private long score;

    @Column(name = "opened")
    private LocalDate opened;

    @jakarta.persistence.OneToMany(mappedBy = "account")
    private java.util.List<Purchase> purchases;

    protected Account() {
    }

    public Long getId() {
        return id;
    }

    public String getRegion() {
        return region;
    }

    public Integer getTier() {
        return tier;
    }

    public BigDecimal getBalance() {
        return balance;
    }

    public long getScore() {
        return score;
    }

    public LocalDate getOpened() {
        return opened;
    }

    @Override
    public String toString() {
        return "Account#" + id;
    }
}
