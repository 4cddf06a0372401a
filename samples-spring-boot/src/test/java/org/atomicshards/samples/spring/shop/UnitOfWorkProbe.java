package org.atomicshards.samples.spring.shop;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import org.atomicshards.spring.ShardKeyParam;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Service methods probing Spring's transaction semantics; the test runs each on the sharded shop and on the oracle
 * (one database) and expects the same outcome. Records the transaction synchronization callbacks it receives.
 */
@Component
public class UnitOfWorkProbe {

    /** A checked exception, which by Spring's default rule does not roll back. */
    public static class CheckedFailure extends Exception {
        private static final long serialVersionUID = 1L;
    }

    private final CustomerRepository customers;
    private final PurchaseOrderRepository orders;
    private final List<String> callbacks = new ArrayList<>();

    public UnitOfWorkProbe(CustomerRepository customers, PurchaseOrderRepository orders) {
        this.customers = customers;
        this.orders = orders;
    }

    /** The synchronization callbacks received so far (a method, as the bean is a class-based proxy). */
    public List<String> callbacks() {
        return callbacks;
    }

    @Transactional
    public void orderForBoth(@ShardKeyParam(unit = Customer.class) long first, long second) {
        orders.save(new PurchaseOrder(customers.findById(first).orElseThrow(), OrderStatus.OPEN, 100, LocalDate.now()));
        orders.save(new PurchaseOrder(customers.findById(second).orElseThrow(), OrderStatus.OPEN, 100, LocalDate.now()));
    }

    /** No @ShardKeyParam: the transaction binds to the first shard it is given a key of. */
    @Transactional
    public void orderForBothUnpinned(long first, long second) {
        orders.save(new PurchaseOrder(customers.getReferenceById(first), OrderStatus.OPEN, 100, LocalDate.now()));
        orders.save(new PurchaseOrder(customers.getReferenceById(second), OrderStatus.OPEN, 100, LocalDate.now()));
    }

    @Transactional
    public void renameAndRecord(@ShardKeyParam(unit = Customer.class) long id, String name) {
        record();
        customers.findById(id).orElseThrow().setName(name);
    }

    @Transactional
    public void renameRecordAndFail(@ShardKeyParam(unit = Customer.class) long id, String name) {
        record();
        customers.findById(id).orElseThrow().setName(name);
        throw new IllegalStateException("fails after the rename");
    }

    @Transactional(readOnly = true)
    public void renameReadOnly(@ShardKeyParam(unit = Customer.class) long id, String name) {
        customers.findById(id).orElseThrow().setName(name);
    }

    @Transactional
    public void renameThenThrowChecked(@ShardKeyParam(unit = Customer.class) long id, String name)
            throws CheckedFailure {
        customers.findById(id).orElseThrow().setName(name);
        throw new CheckedFailure();
    }

    @Transactional(noRollbackFor = IllegalStateException.class)
    public void renameThenThrowNoRollback(@ShardKeyParam(unit = Customer.class) long id, String name) {
        customers.findById(id).orElseThrow().setName(name);
        throw new IllegalStateException("no rollback for this one");
    }

    /** An unpinned transaction: the save binds it to the customer's shard. */
    @Transactional
    public Customer register(Customer customer) {
        return customers.save(customer);
    }

    private void record() {
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void beforeCommit(boolean readOnly) {
                callbacks.add("beforeCommit");
            }

            @Override
            public void afterCommit() {
                callbacks.add("afterCommit");
            }

            @Override
            public void afterCompletion(int status) {
                callbacks.add(status == STATUS_COMMITTED ? "completed" : "rolled back");
            }
        });
    }
}
