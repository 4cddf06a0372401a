package com.acme.shop;

import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

@Entity
@Table(name = "orders")
public class Order {

    @Id
    UUID id;

    // The mistake: the association to the root is not marked @ShardKey, so Order does not carry the key.
    @ManyToOne
    Customer customer;
}
