package org.atomicshards.hibernate.internal.session;

import java.lang.ref.WeakReference;
import java.sql.Connection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import org.atomicshards.hibernate.ShardId;
import org.hibernate.Session;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

/**
 * Bounds every unit of work by the transaction timeout without touching its statements. A unit registers when it
 * begins; one watchdog thread per factory looks at the running units every {@link #tick} and, once a unit is past
 * its deadline, marks it expired and aborts the connection it holds (evicted from the pool, socket closed), so a
 * statement it is waiting for fails at once, even on a silent network; a unit holding no connection at that
 * moment has it aborted on a later tick, as soon as it takes one. A unit that reaches its commit past the deadline
 * is rolled back ({@link Deadline#end()} says so).
 *
 * <p>Why not Hibernate's transaction timeout: it gives every statement the time left as its JDBC query timeout, and
 * drivers pay for that per statement (H2 runs a {@code SET QUERY_TIMEOUT} command each time; pgjdbc schedules a
 * cancel timer task): it halved the throughput of small units of work. Here a unit costs two writes to its thread's
 * slot (a unit begun while its thread's slot is taken, by a unit of another session, goes to a shared set instead).
 *
 * <p>Once a unit has {@linkplain Deadline#end() ended} (it is about to commit or roll back), the watchdog leaves
 * its connection alone: the commit itself is bounded by the driver's socket timeout.
 */
public final class UnitDeadlines implements AutoCloseable {

    /** Aborts a shard's connection; never throws, never blocks on the network for long. */
    public interface Aborter {
        void abort(ShardId shard, Connection connection);
    }

    private final long timeoutNanos;
    private final long tickNanos;
    private final Aborter aborter;
    private final Function<Object, Connection> heldBy;
    private final String threadName;
    /** One slot per thread that ever began a unit; a slot whose thread died is dropped by the watchdog. */
    private final Set<Slot> slots = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<Slot> slotOfThread = ThreadLocal.withInitial(this::newSlot);
    /** Units begun while their thread's slot was taken. */
    private final Set<Deadline> running = ConcurrentHashMap.newKeySet();
    private volatile Thread watchdog;
    private volatile boolean closed;

    /**
     * @param timeoutMillis the transaction timeout of every unit of work
     * @param threadName the watchdog thread's name
     */
    public UnitDeadlines(long timeoutMillis, Aborter aborter, String threadName) {
        this(timeoutMillis, aborter, threadName, unit -> heldConnection((Session) unit));
    }

    /** @param heldBy the connection a unit's holder (its session) holds at the moment it is asked, or null */
    UnitDeadlines(long timeoutMillis, Aborter aborter, String threadName, Function<Object, Connection> heldBy) {
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        this.tickNanos = tick(timeoutMillis);
        this.aborter = aborter;
        this.heldBy = heldBy;
        this.threadName = threadName;
    }

    /** How often the watchdog looks: a twentieth of the timeout, between 5 ms and 100 ms. */
    static long tick(long timeoutMillis) {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(5, Math.min(100, timeoutMillis / 20)));
    }

    /** Registers a unit of work that begins now on {@code shard} in {@code session}. */
    public Deadline begin(ShardId shard, Session session) {
        return beginHeldBy(shard, session);
    }

    /** Registers a unit of work that begins now on {@code shard}, its connection held by {@code holder}. */
    Deadline beginHeldBy(ShardId shard, Object holder) {
        Deadline deadline = new Deadline(shard, holder, System.nanoTime() + timeoutNanos);
        Slot slot = slotOfThread.get();
        if (slot.deadline == null) {
            deadline.slot = slot;
            slot.deadline = deadline;
        } else {
            running.add(deadline);
        }
        if (watchdog == null) {
            startWatchdog();
        }
        return deadline;
    }

    private synchronized void startWatchdog() {
        if (watchdog == null && !closed) {
            Thread thread = new Thread(this::watch, threadName);
            thread.setDaemon(true);
            thread.start();
            watchdog = thread;
        }
    }

    private void watch() {
        while (!closed) {
            LockSupport.parkNanos(this, tickNanos);
            long now = System.nanoTime();
            for (Slot slot : slots) {
                Deadline deadline = slot.deadline;
                if (deadline != null) {
                    expireIfDue(deadline, now);
                } else {
                    Thread thread = slot.thread.get();
                    if (thread == null || !thread.isAlive()) {
                        slots.remove(slot);
                    }
                }
            }
            for (Deadline deadline : running) {
                expireIfDue(deadline, now);
            }
        }
    }

    private Slot newSlot() {
        Slot slot = new Slot(Thread.currentThread());
        slots.add(slot);
        return slot;
    }

    private static void expireIfDue(Deadline deadline, long now) {
        if (now - deadline.expiresAt >= 0) {
            try {
                deadline.expire();
            }
            catch (RuntimeException ignored) {
                // the session closed meanwhile; the unit sees its expiry in end()
            }
        }
    }

    /**
     * The unit of work a thread runs, if any. Holds nothing else of the factory: a thread that outlives the factory
     * keeps only this small object in its thread-local map.
     */
    private static final class Slot {
        private final WeakReference<Thread> thread;
        private volatile Deadline deadline;

        private Slot(Thread thread) {
            this.thread = new WeakReference<>(thread);
        }
    }

    /** Stops the watchdog; units still running are no longer bounded (the factory is closing). */
    @Override
    public void close() {
        closed = true;
        Thread thread = watchdog;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    /** One unit of work's deadline. Its methods are called by the unit's thread, except {@link #expire()}. */
    public final class Deadline {
        private final ShardId shard;
        private final Object holder;
        private final long expiresAt;
        private boolean ended;
        private boolean expired;
        private Connection aborted;
        /** The thread's slot holding this deadline, or null when it is in the shared set. */
        private Slot slot;

        private Deadline(ShardId shard, Object holder, long expiresAt) {
            this.shard = shard;
            this.holder = holder;
            this.expiresAt = expiresAt;
        }

        /**
         * Ends the watch before the unit commits or rolls back (the watchdog no longer touches its connection,
         * which is about to go back to the pool); idempotent.
         *
         * @return whether the unit ran out of time (the watchdog expired it, or its deadline has passed now): it
         *         must then be rolled back, not committed
         */
        public synchronized boolean end() {
            if (!ended) {
                ended = true;
                if (slot != null) {
                    slot.deadline = null;
                } else {
                    running.remove(this);
                }
                expired |= System.nanoTime() - expiresAt >= 0;
            }
            return expired;
        }

        /** Called by the watchdog once the deadline has passed: aborts the connection the unit holds, if any. */
        private synchronized void expire() {
            if (ended) {
                return;
            }
            expired = true;
            Connection connection = heldBy.apply(holder);
            if (connection != null && connection != aborted) {
                aborted = connection;
                aborter.abort(shard, connection);
            }
        }
    }

    /** The physical connection {@code session} holds now, or null. */
    private static Connection heldConnection(Session session) {
        var logical = session.unwrap(SharedSessionContractImplementor.class).getJdbcCoordinator()
                .getLogicalConnection();
        return logical.isOpen() && logical.isPhysicallyConnected() ? logical.getPhysicalConnection() : null;
    }
}
