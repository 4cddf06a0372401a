package org.atomicshards.samples.hello;

// tag::order[]
import java.util.UUID;
import jakarta.persistence.*;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.id.TimeOrderedUuidId;

@Entity                              // a member of the customer's unit: it carries the customer's key
public class PurchaseOrder {
    @Id @TimeOrderedUuidId UUID id;  // unique across shards, unlike an identity column
    @ShardKey @Column(updatable = false) Long customerId;
    long totalCents;

    protected PurchaseOrder() { }
    public PurchaseOrder(Long customerId, long totalCents) {
        this.customerId = customerId;
        this.totalCents = totalCents;
    }
}
// end::order[]
