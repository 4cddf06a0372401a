package org.atomicshards.benchmarks.unitofwork;

import org.atomicshards.benchmarks.model.Customer;
import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.hibernate.Session;

/**
 * The benchmark's unit of work, identical on every side: persist a member (a new order of the customer), find the
 * root by its key, update one of its attributes. The caller supplies the session and its transaction.
 */
public final class UnitOfWork {

    private UnitOfWork() {
    }

    /**
     * @return the customer's order count after the update (returned so the JIT cannot discard the work)
     * @throws IllegalStateException if the customer does not exist on the session's database
     */
    public static int placeOrder(Session session, OrderRequest request) {
        session.persist(new PurchaseOrder(request.orderId(), request.customerId(), request.amountCents(),
                request.orderId()));
        Customer customer = session.find(Customer.class, request.customerId());
        if (customer == null) {
            throw new IllegalStateException("Customer " + request.customerId() + " not found: the data was loaded"
                    + " on another shard than the side routes to");
        }
        customer.recordOrder(request.amountCents());
        return customer.getOrderCount();
    }
}
