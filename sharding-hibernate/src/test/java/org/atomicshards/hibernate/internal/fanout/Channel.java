package org.atomicshards.hibernate.internal.fanout;

/** Test enum stored by name: declared in an order different from its names' order. */
public enum Channel { WEB, STORE, PHONE, APP }
