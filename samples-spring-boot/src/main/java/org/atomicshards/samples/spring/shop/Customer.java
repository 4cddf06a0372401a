package org.atomicshards.samples.spring.shop;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** The root of the shop's atomic unit: a customer and everything they own live on one shard. */
@Entity
@AtomicUnit
public class Customer {

    /** The customer number, assigned by the shop; it is the shard key. */
    @Id
    @ShardKey
    private Long id;

    private String name;

    private String email;

    @Enumerated(EnumType.STRING)
    private Tier tier;

    /** ISO code of the customer's {@link Country} (reference data, present on every shard). */
    private String countryCode;

    @OneToMany(mappedBy = "customer")
    private List<PurchaseOrder> orders = new ArrayList<>();

    protected Customer() {
    }

    public Customer(Long id, String name, String email, Tier tier, String countryCode) {
        this.id = id;
        this.name = name;
        this.email = email;
        this.tier = tier;
        this.countryCode = countryCode;
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getEmail() {
        return email;
    }

    public Tier getTier() {
        return tier;
    }

    public void setTier(Tier tier) {
        this.tier = tier;
    }

    public String getCountryCode() {
        return countryCode;
    }

    public List<PurchaseOrder> getOrders() {
        return orders;
    }

    @Override
    public String toString() {
        return "Customer#" + id + "[" + name + ", " + tier + ", " + countryCode + "]";
    }
}
