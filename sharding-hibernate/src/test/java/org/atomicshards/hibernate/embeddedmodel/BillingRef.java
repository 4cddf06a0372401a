package org.atomicshards.hibernate.embeddedmodel;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import org.atomicshards.annotations.ShardKey;

/** An embedded value carrying the tenant's key. */
@Embeddable
public class BillingRef {
    @ShardKey
    @Column(updatable = false)
    private String tenantId;

    private String number;

    protected BillingRef() {
    }

    public BillingRef(String tenantId, String number) {
        this.tenantId = tenantId;
        this.number = number;
    }

    public void setTenantId(String tenantId) {
        this.tenantId = tenantId;
    }
}
