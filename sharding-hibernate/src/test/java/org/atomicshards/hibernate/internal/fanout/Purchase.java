package org.atomicshards.hibernate.internal.fanout;

import java.math.BigDecimal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;

/** Test model: a member of the account's unit; the shard key travels in {@code accountId}. */
@Entity
@Table(name = "purchase")
@jakarta.persistence.NamedQuery(name = "Purchase.byCategory",
        query = "select p from Purchase p where p.category = :category order by p.id")
public class Purchase {

    @Id
    private Long id;

    @ShardKey
    @Column(name = "account_id", nullable = false, updatable = false)
    private Long accountId;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "account_id", insertable = false, updatable = false)
    private Account account;

    @Column(name = "amount")
    private Integer amount;

    @org.atomicshards.annotations.ShardIndex
    @Column(name = "category", length = 20)
    private String category;

    @Column(name = "quantity", nullable = false)
    private int quantity;

    @Column(name = "price", precision = 10, scale = 2)
    private BigDecimal price;

    @jakarta.persistence.Enumerated(jakarta.persistence.EnumType.STRING)
    @Column(name = "channel")
    private Channel channel;

    @jakarta.persistence.Enumerated(jakarta.persistence.EnumType.ORDINAL)
    @Column(name = "priority")
    private Priority priority;

    protected Purchase() {
    }

    public Long getId() {
        return id;
    }

    public Long getAccountId() {
        return accountId;
    }

    public Account getAccount() {
        return account;
    }

    public Integer getAmount() {
        return amount;
    }

    public String getCategory() {
        return category;
    }

    public int getQuantity() {
        return quantity;
    }

    public BigDecimal getPrice() {
        return price;
    }

    @Override
    public String toString() {
        return "Purchase#" + id;
    }
}
