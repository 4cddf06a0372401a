package org.atomicshards.hibernate;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.hibernate.Session;

/**
 * The adversarial suite's clients: writers, one per way of writing, each the only writer of its units (keys {@code k}
 * with {@code k % WRITERS == index}), and readers held to the {@link VersionLedger}'s bounds. A write counts only once
 * its commit returned; one refused with nothing written ({@link ShardMovingException}, a routing that changed under it,
 * a lock conflict the database rolled back) is run again, as an application would; any other failure leaves its outcome
 * unknown and is recorded as a failure.
 */
final class AdversarialWorkloads {

    /** The ways of writing, one writer each. */
    enum Path {
        /** 2 to 8 units of one shard per transaction, most of one virtual shard, in a session opened on the shard. */
        MULTI_UNIT,
        /** Bulk HQL updates ({@code where u.id = :id}, or {@code where u.id in :ids}), in a session opened on the shard. */
        BULK_HQL,
        /** Native DML through Hibernate, in a session opened on the shard or for the unit's key. */
        NATIVE_DML,
        /** One unit per unit of work ({@code inUnit}), adding a status each time. */
        IN_UNIT,
        /** An instance whose map is ten minutes stale: several units of one shard, or one unit of work. */
        STALE_INSTANCE,
        /** A unit of work, or a session opened for the key, holding its transaction open after its flush. */
        LONG_TRANSACTION
    }

    /** The ways of reading a unit by id. */
    enum Read { FIND, SESSION_FOR_KEY, FAN_OUT_BY_ID, FAN_OUT_COUNT }

    static final int WRITERS = Path.values().length;
    private static final int MAX_ATTEMPTS = 60;
    private static final String UPDATE_ONE = "update User u set u.email = :e where u.id = :id";
    private static final String UPDATE_MANY = "update User u set u.email = :e where u.id in :ids";
    private static final String NATIVE_UPDATE = "update app_user set email = :e where id = :id";

    /** What the clients did, by path, and whether an operation was running meanwhile. */
    static final class Stats {
        final AtomicBoolean stop = new AtomicBoolean();
        /** Set by the nemesis while an operation runs. */
        final AtomicBoolean operating = new AtomicBoolean();
        /**
         * Set by the nemesis for some of its operations: no bulk or native write is made meanwhile. Each of them marks
         * every moving virtual shard of its shard as changed whole, so the move copies all their units again, and
         * would hide a lost write of any other path.
         */
        final AtomicBoolean quietBulk = new AtomicBoolean();
        final Map<Path, AtomicLong> acknowledged = counters(Path.class);
        final Map<Path, AtomicLong> acknowledgedWhileOperating = counters(Path.class);
        final Map<Path, AtomicLong> unitsWritten = counters(Path.class);
        final Map<Read, AtomicLong> reads = counters(Read.class);
        final Map<Read, AtomicLong> readsWhileOperating = counters(Read.class);
        final AtomicLong shardMoving = new AtomicLong();
        final AtomicLong otherRetries = new AtomicLong();
        final AtomicLong bulkMisses = new AtomicLong();
        final AtomicLong unknownOutcomes = new AtomicLong();
        final AtomicLong longHeldWhileOperating = new AtomicLong();
        final AtomicLong statusesStarted = new AtomicLong();
        final AtomicLong statusesAcknowledged = new AtomicLong();
        final Map<String, AtomicLong> retryReasons = new ConcurrentHashMap<>();
        final List<String> failures = new CopyOnWriteArrayList<>();

        private static <E extends Enum<E>> Map<E, AtomicLong> counters(Class<E> type) {
            Map<E, AtomicLong> counters = new EnumMap<>(type);
            for (E e : type.getEnumConstants()) {
                counters.put(e, new AtomicLong());
            }
            return counters;
        }

        void failed(String what, Throwable e) {
            if (failures.size() < 50) {
                failures.add(what + ": " + describe(e));
            }
        }

        @Override
        public String toString() {
            return "acknowledged " + acknowledged + " (while operations ran " + acknowledgedWhileOperating
                    + "), reads " + reads + " (while operations ran " + readsWhileOperating + "), "
                    + shardMoving + " ShardMovingException, " + otherRetries + " other retries " + retryReasons
                    + ", " + bulkMisses + " bulk statements that matched no row (stale routing, rolled back), "
                    + unknownOutcomes + " unknown outcomes, " + longHeldWhileOperating
                    + " long transactions held while an operation ran";
        }
    }

    private AdversarialWorkloads() {
    }

    static String describe(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null && text.length() < 600; t = t.getCause()) {
            text.append(text.length() == 0 ? "" : " <- ").append(t.getClass().getSimpleName()).append(": ")
                    .append(t.getMessage());
        }
        return text.toString();
    }

    /**
     * Whether the failure says the transaction committed nothing: {@link SoakWriter#nothingWritten} (the move's
     * {@link ShardMovingException}, a lock conflict rolled back), or the guard's {@link WrongShardException} (the map
     * changed between routing and flush: refused before anything was written).
     */
    static boolean nothingWritten(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof WrongShardException) {
                return true;
            }
        }
        return SoakWriter.nothingWritten(e);
    }

    private static boolean isShardMoving(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ShardMovingException) {
                return true;
            }
        }
        return false;
    }

    /** The outcome of one attempt that did not throw. */
    private enum Attempt { COMMITTED, MISSED }

    /** One attempt at writing {@code version} to {@code units} of {@code shard} in a transaction of its own. */
    private interface Work {
        Attempt run(ShardId shard, List<VersionLedger.Unit> units, long version);
    }

    /** One writer: the only one of its units. */
    static final class Writer implements Runnable {

        private final Path path;
        private final ShardedSessionFactory shards;
        private final VersionLedger ledger;
        private final Stats stats;
        private final Random random;
        private final List<VersionLedger.Unit> mine;
        /** This writer's units in teams of one virtual shard each ({@link #group}). */
        private final List<List<VersionLedger.Unit>> teams = new ArrayList<>();
        /** Route the next attempt through a confirmed read of where the unit is (after a bulk statement missed). */
        private boolean confirmRouting;

        Writer(Path path, ShardedSessionFactory shards, VersionLedger ledger, Stats stats, long seed) {
            this.path = path;
            this.shards = shards;
            this.ledger = ledger;
            this.stats = stats;
            this.random = new Random(seed * 31 + path.ordinal());
            this.mine = ledger.units().values().stream().filter(u -> u.key % WRITERS == path.ordinal()).toList();
            Map<Integer, List<VersionLedger.Unit>> byVirtualShard = mine.stream()
                    .collect(Collectors.groupingBy(u -> u.virtualShard, java.util.TreeMap::new, Collectors.toList()));
            byVirtualShard.values().forEach(ofOne -> {
                List<VersionLedger.Unit> shuffled = new ArrayList<>(ofOne);
                java.util.Collections.shuffle(shuffled, random);
                for (int from = 0; from < shuffled.size(); ) {
                    int size = Math.min(2 + random.nextInt(7), shuffled.size() - from);
                    if (shuffled.size() - from - size == 1) {
                        size++; // no team of one
                    }
                    teams.add(List.copyOf(shuffled.subList(from, from + size)));
                    from += size;
                }
            });
        }

        @Override
        public void run() {
            while (!stats.stop.get()) {
                boolean operating = stats.operating.get();
                try {
                    int written = writeOnce();
                    if (written > 0) {
                        stats.acknowledged.get(path).incrementAndGet();
                        stats.unitsWritten.get(path).addAndGet(written);
                        if (operating && stats.operating.get()) {
                            stats.acknowledgedWhileOperating.get(path).incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    stats.failed(path + " writer", e);
                }
                sleep(1 + random.nextInt(4)); // paced, so that the movers get their share of the machine
            }
        }

        /** One write of this writer's path, with its retries; returns how many units it acknowledged. */
        private int writeOnce() {
            boolean quiet = stats.quietBulk.get();
            if (quiet && (path == Path.BULK_HQL || path == Path.NATIVE_DML)) {
                sleep(5);
                return 0;
            }
            return switch (path) {
                case MULTI_UNIT -> write(group(), false, this::entityUpdates);
                case BULK_HQL -> write(group(), false, this::bulkUpdates);
                case NATIVE_DML -> random.nextBoolean() ? write(group(), false, this::nativeUpdates)
                        : write(List.of(any()), false, this::nativeUpdateForKey);
                case IN_UNIT -> write(List.of(any()), true, (shard, units, v) -> inUnit(units, v, 0));
                case STALE_INSTANCE -> random.nextInt(3) == 0 ? write(List.of(any()), true,
                        (shard, units, v) -> inUnit(units, v, 0))
                        : write(group(), false, random.nextBoolean() || quiet ? this::entityUpdates : this::bulkUpdates);
                case LONG_TRANSACTION -> random.nextBoolean()
                        ? write(List.of(any()), true, (shard, units, v) -> inUnit(units, v, hold()))
                        : write(List.of(any()), true, this::heldSessionForKey);
            };
        }

        private long hold() {
            return 500 + random.nextInt(1_000);
        }

        private VersionLedger.Unit any() {
            return mine.get(random.nextInt(mine.size()));
        }

        /**
         * 2 to 8 of this writer's units: a team of one virtual shard, in its order, sometimes followed by one or two
         * units of another. A team's units are always written together in the same order (as an application moves
         * money between the same accounts), so that only the first unit of a team is ever the first unit of its
         * virtual shard that a transaction writes: the others are exactly the writes a fence that logged only the first
         * unit would lose.
         */
        private List<VersionLedger.Unit> group() {
            List<VersionLedger.Unit> group = new ArrayList<>(teams.get(random.nextInt(teams.size())));
            if (random.nextInt(4) == 0) {
                for (int i = 0; i < 1 + random.nextInt(2); i++) {
                    VersionLedger.Unit other = any();
                    if (!group.contains(other)) {
                        group.add(other);
                    }
                }
            }
            if (group.size() < 2) {
                VersionLedger.Unit other = any();
                if (!group.contains(other)) {
                    group.add(other);
                }
            }
            return group;
        }

        /**
         * Writes a new version to {@code units} (those of them on the first one's shard, as this instance's map says
         * at each attempt) until an attempt commits, or gives up after {@link #MAX_ATTEMPTS} refusals.
         */
        private int write(List<VersionLedger.Unit> units, boolean withStatus, Work work) {
            long version = ledger.nextVersion();
            ledger.started(units, version);
            if (withStatus) {
                stats.statusesStarted.addAndGet(units.size());
            }
            for (int attempt = 1; attempt <= MAX_ATTEMPTS && !stats.stop.get(); attempt++) {
                ShardId shard = shardOf(units.get(0));
                List<VersionLedger.Unit> together = onOneShard(shard, units);
                try {
                    Attempt outcome = work.run(shard, together, version);
                    if (outcome == Attempt.COMMITTED) {
                        ledger.acknowledged(together, version, withStatus);
                        if (withStatus) {
                            stats.statusesAcknowledged.addAndGet(together.size());
                        }
                        return together.size();
                    }
                    stats.bulkMisses.incrementAndGet();
                    confirmRouting = true;
                } catch (RuntimeException e) {
                    if (!nothingWritten(e)) {
                        ledger.unknown(together, version, withStatus);
                        stats.unknownOutcomes.incrementAndGet();
                        stats.failed(path + " write of v" + version + " to " + keys(together)
                                + " (outcome unknown)", e);
                        return 0;
                    }
                    if (isShardMoving(e)) {
                        stats.shardMoving.incrementAndGet();
                    } else {
                        stats.otherRetries.incrementAndGet();
                        stats.retryReasons.computeIfAbsent(rootCause(e), k -> new AtomicLong()).incrementAndGet();
                    }
                }
                pause();
            }
            return 0;
        }

        /** The first unit, and those of the others that this instance's map puts on the first one's shard. */
        private List<VersionLedger.Unit> onOneShard(ShardId shard, List<VersionLedger.Unit> units) {
            List<VersionLedger.Unit> together = new ArrayList<>();
            for (VersionLedger.Unit unit : units) {
                if (unit == units.get(0) || shards.shardFor(User.class, unit.key).orElseThrow().equals(shard)) {
                    together.add(unit);
                }
            }
            return together;
        }

        /** The unit's shard as this instance's map says, confirmed on the shard if a bulk write missed. */
        private ShardId shardOf(VersionLedger.Unit unit) {
            if (confirmRouting) {
                confirmRouting = false;
                return shards.shardHolding(User.class, unit.key).orElseThrow();
            }
            return shards.shardFor(User.class, unit.key).orElseThrow();
        }

        private Attempt entityUpdates(ShardId shard, List<VersionLedger.Unit> units, long version) {
            return inOwnTransaction(shards.openSession(shard),
                    session -> {
                        for (VersionLedger.Unit unit : units) {
                            long before = unit.acknowledged();
                            User user = session.find(User.class, unit.key);
                            if (!ledger.checkRead(path + ": find in its own transaction", unit, before, user)
                                    && user == null) {
                                throw new IllegalStateException("user " + unit.key + " not found, rolled back");
                            }
                            user.setEmail(VersionLedger.email(version));
                        }
                        return Attempt.COMMITTED;
                    });
        }

        private Attempt bulkUpdates(ShardId shard, List<VersionLedger.Unit> units, long version) {
            List<Long> keys = keys(units);
            boolean inOne = random.nextBoolean();
            return inOwnTransaction(shards.openSession(shard),
                    session -> {
                        int matched = 0;
                        if (inOne) {
                            matched = session.createMutationQuery(UPDATE_MANY)
                                    .setParameter("e", VersionLedger.email(version)).setParameter("ids", keys)
                                    .executeUpdate();
                        } else {
                            for (long key : keys) {
                                matched += session.createMutationQuery(UPDATE_ONE)
                                        .setParameter("e", VersionLedger.email(version)).setParameter("id", key)
                                        .executeUpdate();
                            }
                        }
                        return matched == keys.size() ? Attempt.COMMITTED : Attempt.MISSED;
                    });
        }

        private Attempt nativeUpdates(ShardId shard, List<VersionLedger.Unit> units, long version) {
            return inOwnTransaction(shards.openSession(shard),
                    session -> nativeUpdate(session, units, version));
        }

        private Attempt nativeUpdateForKey(ShardId shard, List<VersionLedger.Unit> units, long version) {
            return inOwnTransaction(shards.openSession(User.class, units.get(0).key),
                    session -> nativeUpdate(session, units, version));
        }

        private static Attempt nativeUpdate(Session session, List<VersionLedger.Unit> units, long version) {
            int matched = 0;
            for (VersionLedger.Unit unit : units) {
                matched += session.createNativeMutationQuery(NATIVE_UPDATE)
                        .setParameter("e", VersionLedger.email(version)).setParameter("id", unit.key)
                        .executeUpdate();
            }
            return matched == units.size() ? Attempt.COMMITTED : Attempt.MISSED;
        }

        /** A unit of work updating the unit and adding a status; holds {@code holdMillis} after its flush. */
        private Attempt inUnit(List<VersionLedger.Unit> units, long version, long holdMillis) {
            VersionLedger.Unit unit = units.get(0);
            shards.inUnit(User.class, unit.key, session -> {
                writeWithStatus(session, unit, version);
                hold(session, holdMillis);
            });
            return Attempt.COMMITTED;
        }

        /** A session opened for the unit's key, whose transaction stays open a while after its flush. */
        private Attempt heldSessionForKey(ShardId shard, List<VersionLedger.Unit> units, long version) {
            VersionLedger.Unit unit = units.get(0);
            return inOwnTransaction(shards.openSession(User.class, unit.key), session -> {
                writeWithStatus(session, unit, version);
                hold(session, hold());
                return Attempt.COMMITTED;
            });
        }

        private void writeWithStatus(Session session, VersionLedger.Unit unit, long version) {
            long before = unit.acknowledged();
            User user = session.find(User.class, unit.key);
            if (!ledger.checkRead(path + ": find in its own unit of work", unit, before, user) && user == null) {
                throw new IllegalStateException("user " + unit.key + " not found, rolled back");
            }
            user.setEmail(VersionLedger.email(version));
            session.persist(new Status(user, VersionLedger.email(version)));
        }

        private void hold(Session session, long millis) {
            if (millis <= 0) {
                return;
            }
            session.flush();
            boolean operating = stats.operating.get();
            sleep(millis);
            if (operating || stats.operating.get()) {
                stats.longHeldWhileOperating.incrementAndGet();
            }
        }

        private interface InSession {
            Attempt run(Session session);
        }

        /** What an application does with a session it opened: begin, work, commit (or roll back), close. */
        private static Attempt inOwnTransaction(Session session, InSession work) {
            try (session) {
                session.getTransaction().begin();
                try {
                    Attempt outcome = work.run(session);
                    if (outcome == Attempt.COMMITTED) {
                        session.getTransaction().commit();
                    } else {
                        session.getTransaction().rollback();
                    }
                    return outcome;
                } catch (RuntimeException e) {
                    if (session.getTransaction().isActive()) {
                        session.getTransaction().rollback();
                    }
                    throw e;
                }
            }
        }

        private void pause() {
            sleep(2 + random.nextInt(15));
        }
    }

    /** A reader of units by id and of fan-out counts, on one instance, checking each answer against the ledger. */
    static final class Reader implements Runnable {

        private final String name;
        private final ShardedSessionFactory shards;
        private final VersionLedger ledger;
        private final Stats stats;
        private final Random random;
        private final List<VersionLedger.Unit> units;

        Reader(String name, ShardedSessionFactory shards, VersionLedger ledger, Stats stats, long seed) {
            this.name = name;
            this.shards = shards;
            this.ledger = ledger;
            this.stats = stats;
            this.random = new Random(seed * 17 + name.hashCode());
            this.units = List.copyOf(ledger.units().values());
        }

        @Override
        public void run() {
            while (!stats.stop.get()) {
                Read read = Read.values()[random.nextInt(10) < 9 ? random.nextInt(3) : 3];
                boolean operating = stats.operating.get();
                try {
                    readOnce(read);
                    stats.reads.get(read).incrementAndGet();
                    if (operating && stats.operating.get()) {
                        stats.readsWhileOperating.get(read).incrementAndGet();
                    }
                } catch (RuntimeException e) {
                    if (isShardMoving(e)) {
                        stats.shardMoving.incrementAndGet();
                    } else {
                        stats.failed(name + " " + read, e);
                    }
                }
                sleep(random.nextInt(3));
            }
        }

        private void readOnce(Read read) {
            VersionLedger.Unit unit = units.get(random.nextInt(units.size()));
            long before = unit.acknowledged();
            String path = name + " " + read;
            switch (read) {
                case FIND -> ledger.checkRead(path, unit, before, shards.find(User.class, unit.key));
                case SESSION_FOR_KEY -> {
                    try (Session session = shards.openSession(User.class, unit.key)) {
                        ledger.checkRead(path, unit, before, session.find(User.class, unit.key));
                    }
                }
                case FAN_OUT_BY_ID -> {
                    List<User> found = shards.fanOut().createQuery("select u from User u where u.id = :id",
                            User.class).setParameter("id", unit.key).getResultList();
                    if (found.size() > 1) {
                        ledger.wrong(path + " of " + unit + ": " + found.size() + " rows");
                    } else {
                        ledger.checkRead(path, unit, before, found.isEmpty() ? null : found.get(0));
                    }
                }
                case FAN_OUT_COUNT -> {
                    long low = ledger.units().size() + stats.statusesAcknowledged.get();
                    long users = shards.fanOut().createQuery("select count(u) from User u", Long.class)
                            .getSingleResult();
                    long statuses = shards.fanOut().createQuery("select count(s) from Status s", Long.class)
                            .getSingleResult();
                    long high = ledger.units().size() + stats.statusesStarted.get();
                    if (users != ledger.units().size()) {
                        ledger.wrong(path + ": " + users + " users, there are " + ledger.units().size());
                    }
                    if (statuses < low || statuses > high) {
                        ledger.wrong(path + ": " + statuses + " statuses, not in [" + low + ", " + high
                                + "]");
                    }
                }
            }
        }
    }

    private static List<Long> keys(List<VersionLedger.Unit> units) {
        return units.stream().map(u -> u.key).toList();
    }

    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
