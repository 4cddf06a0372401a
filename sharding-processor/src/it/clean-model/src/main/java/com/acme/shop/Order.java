package com.acme.shop;

import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

import org.atomicshards.annotations.ShardKey;

@Entity
@Table(name = "orders")
public class Order {

    @Id
    UUID id;

    @ManyToOne
    @JoinColumn(updatable = false)
    @ShardKey
    Customer customer;
}
