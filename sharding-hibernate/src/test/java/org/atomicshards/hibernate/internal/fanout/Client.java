package org.atomicshards.hibernate.internal.fanout;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/**
 * Test model of the aggregate and plan-cache tests: a unit root with one attribute of each numeric Java type an
 * aggregate may run over (int, short, long, BigDecimal, double, BigInteger, float).
 */
@Entity
@Table(name = "client")
@AtomicUnit
public class Client {

    @Id
    @ShardKey
    private Long id;

    @Column(name = "tier", nullable = false)
    private int tier;

    @Column(name = "visits", nullable = false)
    private short visits;

    @Column(name = "points", nullable = false)
    private long points;

    @Column(name = "balance", precision = 12, scale = 2)
    private BigDecimal balance;

    @Column(name = "rating", nullable = false)
    private double rating;

    @Column(name = "created_at")
    private LocalDateTime createdAt;

    @Column(name = "credits", nullable = false)
    private BigInteger credits;

    @Column(name = "weight", nullable = false)
    private float weight;

    protected Client() {
    }

    Client(long id, int tier, short visits, long points, BigDecimal balance, double rating, LocalDateTime createdAt,
           BigInteger credits, float weight) {
        this.id = id;
        this.tier = tier;
        this.visits = visits;
        this.points = points;
        this.balance = balance;
        this.rating = rating;
        this.createdAt = createdAt;
        this.credits = credits;
        this.weight = weight;
    }

    public Long getId() {
        return id;
    }

    @Override
    public String toString() {
        return "Client#" + id;
    }
}
