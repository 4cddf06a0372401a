package org.atomicshards.benchmarks.unitofwork;

/** The input of one unit of work: which customer, the new order's id and amount. */
public record OrderRequest(long customerId, long orderId, long amountCents) {
}
