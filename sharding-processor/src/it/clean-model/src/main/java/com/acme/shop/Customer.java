package com.acme.shop;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;

import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

@Entity
@AtomicUnit
public class Customer {

    @Id
    @ShardKey
    Long id;

    @OneToMany(mappedBy = "customer")
    List<Order> orders = new ArrayList<>();
}
