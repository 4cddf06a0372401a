package org.atomicshards.samples.spring.shop;

/** Where an order is in its life. */
public enum OrderStatus {
    OPEN, PAID, SHIPPED, CANCELLED
}
