package org.atomicshards.samples.resharding;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.ShardedSessionFactory;

/**
 * The application's traffic while the shards change: writer threads, each owning its own users, run units of work
 * (new users with a status, an email change with a status, a photo, a read by key that must see the thread's last
 * acknowledged write), and one thread runs fan-out counts that must lie between what was acknowledged before and
 * what was started after. Throughput is counted per named phase. A {@link ShardMovingException} (the retryable
 * "virtual shard being switched, nothing written") is counted, not a failure; any other exception is.
 */
final class Workload {

    private static final long COUNT_INTERVAL_MS = 20;

    private final ShardedSessionFactory shards;
    private final UnitWrites writes;
    private final Ledger ledger;
    private final List<List<Long>> owned = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicReference<Phase> phase = new AtomicReference<>();
    private final List<Phase> phases = new CopyOnWriteArrayList<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    Workload(ShardedSessionFactory shards, UnitWrites writes, Ledger ledger, int writers) {
        this.shards = shards;
        this.writes = writes;
        this.ledger = ledger;
        for (int t = 0; t < writers; t++) {
            owned.add(new ArrayList<>());
        }
    }

    /**
     * Writes {@code units} users, each with 1-3 statuses and 0-2 photos in one unit of work, spread over the writer
     * threads (each thread later writes only its own users).
     */
    void load(int units) {
        List<Thread> loaders = new ArrayList<>();
        for (int t = 0; t < owned.size(); t++) {
            int thread = t;
            loaders.add(started("loader-" + t, () -> {
                Random random = new Random(1000 + thread);
                for (int i = thread; i < units; i += owned.size()) {
                    try {
                        owned.get(thread).add(writes.createUnit(random, 1 + random.nextInt(3), random.nextInt(3)));
                    } catch (RuntimeException e) {
                        problems.add("loader-" + thread + ": " + e);
                        return;
                    }
                }
            }));
        }
        joinAll(loaders);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Loading the units failed: " + problems);
        }
    }

    /** Starts the writers and the fan-out counter, counting into a phase named {@code firstPhase}. */
    void start(String firstPhase) {
        phase(firstPhase);
        running.set(true);
        for (int t = 0; t < owned.size(); t++) {
            int thread = t;
            threads.add(started("writer-" + t, () -> write(thread)));
        }
        threads.add(started("fan-out-counter", this::countAcrossShards));
    }

    /** Ends the current phase and counts from now on into a new one. */
    void phase(String name) {
        Phase next = new Phase(name);
        Phase previous = phase.getAndSet(next);
        if (previous != null) {
            previous.end();
        }
        phases.add(next);
    }

    /**
     * Stops every thread and waits for them; the ledger then holds every acknowledged write. Calling it again returns
     * the same phases.
     */
    List<Phase> stop() {
        running.set(false);
        joinAll(threads);
        Phase last = phase.get();
        if (last != null) {
            last.end();
        }
        return List.copyOf(phases);
    }

    /** What went wrong: unexpected exceptions, reads that missed an acknowledged write, fan-out counts out of bounds. */
    List<String> problems() {
        return List.copyOf(problems);
    }

    private void write(int thread) {
        Random random = new Random(thread);
        List<Long> mine = owned.get(thread);
        int n = 0;
        while (running.get()) {
            try {
                int dice = random.nextInt(100);
                long user = mine.get(random.nextInt(mine.size()));
                if (dice < 15) {
                    mine.add(writes.createUnit(random, 1, 0));
                    phase.get().writes.incrementAndGet();
                } else if (dice < 45) {
                    writes.update(user, n++);
                    phase.get().writes.incrementAndGet();
                } else if (dice < 60) {
                    writes.addPhoto(user, n++);
                    phase.get().writes.incrementAndGet();
                } else {
                    String wrong = writes.readBack(user);
                    if (wrong != null) {
                        problems.add("writer-" + thread + ": " + wrong);
                    }
                    phase.get().reads.incrementAndGet();
                }
            } catch (ShardMovingException e) {
                phase.get().retryable.incrementAndGet();
            } catch (RuntimeException | Error e) {
                problems.add("writer-" + thread + ": " + e);
                return;
            }
        }
    }

    private void countAcrossShards() {
        while (running.get()) {
            try {
                long usersLow = ledger.usersAcknowledged();
                long statusesLow = ledger.statusesAcknowledged();
                int mapBefore = shards.directory().version();
                long users = shards.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult();
                long statuses = shards.fanOut().createQuery("select count(s) from Status s", Long.class)
                        .getSingleResult();
                int mapAfter = shards.directory().version();
                long usersHigh = ledger.usersStarted();
                long statusesHigh = ledger.statusesStarted();
                // where the resharding was, so that a failure can be placed between two of its steps
                String when = " (phase '" + phase.get().name() + "', map version " + mapBefore
                        + (mapAfter == mapBefore ? "" : " to " + mapAfter) + ")";
                if (users < usersLow || users > usersHigh) {
                    problems.add("fan-out counted " + users + " users; between " + usersLow + " and " + usersHigh
                            + " were committed" + when);
                }
                if (statuses < statusesLow || statuses > statusesHigh) {
                    problems.add("fan-out counted " + statuses + " statuses; between " + statusesLow + " and "
                            + statusesHigh + " were committed" + when);
                }
                phase.get().fanOuts.incrementAndGet();
                Thread.sleep(COUNT_INTERVAL_MS); // leaves the CPU to the writers on a small machine
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | Error e) {
                problems.add("fan-out-counter: " + e);
                return;
            }
        }
    }

    private static Thread started(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true); // never keeps the JVM alive if the demo fails half-way
        thread.start();
        return thread;
    }

    private static void joinAll(List<Thread> threads) {
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + thread.getName(), e);
            }
        }
    }

    /** The operations completed in one phase of the run. */
    static final class Phase {
        private final String name;
        private final long started = System.nanoTime();
        private volatile long ended;
        private final AtomicLong writes = new AtomicLong();
        private final AtomicLong reads = new AtomicLong();
        private final AtomicLong fanOuts = new AtomicLong();
        private final AtomicLong retryable = new AtomicLong();

        private Phase(String name) {
            this.name = name;
        }

        private void end() {
            if (ended == 0) {
                ended = System.nanoTime();
            }
        }

        String name() {
            return name;
        }

        double seconds() {
            return ((ended == 0 ? System.nanoTime() : ended) - started) / 1e9;
        }

        long writes() {
            return writes.get();
        }

        long reads() {
            return reads.get();
        }

        long fanOuts() {
            return fanOuts.get();
        }

        /** Units of work that got the retryable ShardMovingException (nothing written). */
        long retryable() {
            return retryable.get();
        }
    }
}
