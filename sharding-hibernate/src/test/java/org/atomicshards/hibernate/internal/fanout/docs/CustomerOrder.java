package org.atomicshards.hibernate.internal.fanout.docs;

import java.math.BigDecimal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;

/** The member entity of the user guide's fan-out example: the key travels in {@code customerId}. */
@Entity
@Table(name = "customer_order")
public class CustomerOrder {

    @Id
    private Long id;

    @ShardKey
    @Column(updatable = false)
    private Long customerId;

    private String status;

    private BigDecimal total;

    protected CustomerOrder() {
    }

    public CustomerOrder(Long id, Long customerId, String status, BigDecimal total) {
        this.id = id;
        this.customerId = customerId;
        this.status = status;
        this.total = total;
    }

    public Long getId() {
        return id;
    }

    public Long getCustomerId() {
        return customerId;
    }

    public String getStatus() {
        return status;
    }

    public BigDecimal getTotal() {
        return total;
    }
}
