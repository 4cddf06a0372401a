package org.atomicshards.hibernate.internal.fanout;

/** Test enum stored by ordinal: declared in an order different from its names' order. */
public enum Priority { NORMAL, URGENT, LOW }
