package org.atomicshards.samples.adoption;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.samples.adoption.model.Customer;
import org.atomicshards.samples.adoption.model.OrderLine;
import org.atomicshards.samples.adoption.model.PurchaseOrder;

/**
 * The application writing through the library while the shards split: new customers, each with an order and a line
 * in its unit, one every few milliseconds, a write retried while its unit is switched (as the library asks), every
 * acknowledged write's ids kept.
 */
final class ShopWriter implements AutoCloseable {

    /** The ids of one acknowledged write: customer, order, line. */
    record Written(long customer, long order, long line) {
    }

    private final ShardedSessionFactory shards;
    private final ConcurrentLinkedQueue<Written> acknowledged = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final Future<?> running;

    ShopWriter(ShardedSessionFactory shards) {
        this.shards = shards;
        this.running = executor.submit(() -> {
            while (!stop.get()) {
                acknowledged.add(write());
                Thread.sleep(5); // an application's pace, not a flood: the main job stays short on two cores
            }
            return null;
        });
    }

    private Written write() {
        Customer customer = new Customer("written during the splits");
        retried(() -> shards.persist(customer));
        long key = customer.getId();
        long[] ids = new long[2];
        retried(() -> shards.inUnit(Customer.class, key, session -> {
            PurchaseOrder order = new PurchaseOrder(session.getReference(Customer.class, key), "order");
            session.persist(order);
            OrderLine line = new OrderLine(order, key, "line");
            session.persist(line);
            session.flush();
            ids[0] = order.getId();
            ids[1] = line.getId();
        }));
        return new Written(key, ids[0], ids[1]);
    }

    private static void retried(Runnable write) {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                return;
            } catch (ShardMovingException e) {
                if (attempt == 50) {
                    throw e;
                }
            }
        }
    }

    /**
     * Stops writing and returns every acknowledged write.
     *
     * @throws IllegalStateException if a write failed
     */
    List<Written> stop() {
        stop.set(true);
        try {
            running.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("A write during the splits failed: " + e.getMessage(), e);
        } finally {
            executor.shutdown();
        }
        return List.copyOf(acknowledged);
    }

    @Override
    public void close() {
        stop.set(true);
        executor.shutdownNow();
    }
}
