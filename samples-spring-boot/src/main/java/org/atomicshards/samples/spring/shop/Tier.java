package org.atomicshards.samples.spring.shop;

/** A customer's loyalty tier. */
public enum Tier {
    BRONZE, SILVER, GOLD
}
