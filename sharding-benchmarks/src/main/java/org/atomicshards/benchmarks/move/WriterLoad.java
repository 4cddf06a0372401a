package org.atomicshards.benchmarks.move;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.atomicshards.benchmarks.model.Customer;
import org.atomicshards.benchmarks.unitofwork.OrderRequest;
import org.atomicshards.benchmarks.unitofwork.OrderRequests;
import org.atomicshards.benchmarks.unitofwork.UnitOfWork;
import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.ShardedSessionFactory;

/**
 * The application during the benchmark: {@code threads} threads running the benchmark's unit of work
 * ({@link UnitOfWork#placeOrder}) against customers drawn uniformly from all loaded customers, back to back or paced
 * to a total rate (each thread its share, on a fixed schedule; a thread held up runs its next unit of work at once
 * but does not make up for the others it missed, so no window runs above the pace), each
 * logging every unit of work in its own {@link UnitOfWorkLog}. A unit of work turned away by a move
 * ({@link ShardMovingException}, retryable, nothing written) is logged as not committed and the thread goes on; any
 * other failure stops the load and is thrown by {@link #stop()}.
 */
final class WriterLoad {

    private final List<Thread> threads = new ArrayList<>();
    private final List<UnitOfWorkLog> logs = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean running = true;

    private WriterLoad() {
    }

    /**
     * Starts the threads; each has its own request stream and order ids ({@link OrderRequests#forThread}).
     *
     * @param ratePerSecond units of work per second over all threads; 0 or less: as fast as they run
     */
    static WriterLoad start(ShardedSessionFactory factory, long customers, int threadCount, int ratePerSecond) {
        if (threadCount < 1) {
            throw new IllegalArgumentException("The load needs at least one thread, was " + threadCount);
        }
        WriterLoad load = new WriterLoad();
        for (int t = 0; t < threadCount; t++) {
            UnitOfWorkLog log = new UnitOfWorkLog();
            OrderRequests requests = OrderRequests.forThread(customers, t);
            load.logs.add(log);
            long interval = ratePerSecond > 0 ? 1_000_000_000L * threadCount / ratePerSecond : 0;
            load.threads.add(new Thread(() -> load.run(factory, requests, log, interval), "move-writer-" + t));
        }
        load.threads.forEach(Thread::start);
        return load;
    }

    private void run(ShardedSessionFactory factory, OrderRequests requests, UnitOfWorkLog log, long intervalNanos) {
        long next = System.nanoTime();
        while (running) {
            if (intervalNanos > 0) {
                long now = System.nanoTime();
                // a thread held up (by a move's freeze, say) does not make up for the time lost: catching up would
                // run it above its pace afterwards, and the rate measured then would exceed the pace
                next = Math.max(next + intervalNanos, now - intervalNanos);
                long wait = next - now;
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
            OrderRequest request = requests.next();
            long start = System.nanoTime();
            try {
                factory.callInUnit(Customer.class, request.customerId(),
                        session -> UnitOfWork.placeOrder(session, request));
                log.record(request.customerId(), start, System.nanoTime(), true);
            } catch (ShardMovingException e) {
                log.record(request.customerId(), start, System.nanoTime(), false);
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                running = false;
            }
        }
    }

    /** Whether every thread is still running (none has failed). */
    boolean healthy() {
        return failure.get() == null;
    }

    /**
     * Stops the threads and waits for them.
     *
     * @return every thread's log, complete
     * @throws IllegalStateException if a unit of work failed with anything but {@link ShardMovingException}
     */
    List<UnitOfWorkLog> stop() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join();
        }
        Throwable failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException("A unit of work failed during the move benchmark: " + failed, failed);
        }
        return List.copyOf(logs);
    }
}
