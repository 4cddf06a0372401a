package org.atomicshards.hibernate;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.atomicshards.hibernate.SoakStats.Op;
import org.atomicshards.hibernate.model.Photo;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.hibernate.Session;

/**
 * One of the soak test's threads: a seeded mix of units of work on its own churn units (new units, email updates,
 * member inserts and deletes), reads by id (roots inside and outside a unit of work, members by their ids), fan-outs
 * over the stable units compared with the oracle, and fan-out counts over all churn units checked against the
 * ledger's bounds. Every write is recorded in the ledger by its outcome; a unit of work refused with nothing written
 * (the move's {@link ShardMovingException}, a lock conflict) is run again, as an application would.
 */
final class SoakWriter implements Runnable {

    private static final int MAX_ATTEMPTS = 40;

    private enum Outcome { ACKNOWLEDGED, NOT_WRITTEN, UNKNOWN }

    private final ShardedSessionFactory shards;
    private final SoakOracle oracle;
    private final Map<Long, SoakUnit> stable;
    private final long stableLow;
    private final long stableHigh;
    private final SoakLedger ledger;
    private final SoakStats stats;
    private final Random random;
    private final List<SoakUnit> mine = new ArrayList<>();
    private long nextKey;

    /**
     * @param index the thread's number: its churn keys start at {@code CHURN_BASE + index * 10^7}
     * @param stable the stable units (keys {@code stableLow..stableHigh}) as the oracle holds them
     */
    SoakWriter(int index, long seed, ShardedSessionFactory shards, SoakOracle oracle, Map<Long, SoakUnit> stable,
            SoakLedger ledger, SoakStats stats) {
        this.shards = shards;
        this.oracle = oracle;
        this.stable = stable;
        this.stableLow = stable.keySet().stream().mapToLong(Long::longValue).min().orElseThrow();
        this.stableHigh = stable.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
        this.ledger = ledger;
        this.stats = stats;
        this.random = new Random(seed + index);
        this.nextKey = SoakLedger.CHURN_BASE + index * 10_000_000L;
    }

    @Override
    public void run() {
        while (!stats.stop.get()) {
            Op op = next();
            boolean moving = stats.moving.get();
            try {
                perform(op);
                stats.done(op, moving && stats.moving.get());
            } catch (Throwable e) {
                stats.failed(op, e);
            }
        }
    }

    private Op next() {
        if (mine.isEmpty()) {
            return Op.NEW_UNIT;
        }
        int roll = random.nextInt(100);
        if (roll < 12) {
            return Op.NEW_UNIT;
        }
        if (roll < 34) {
            return Op.UPDATE;
        }
        if (roll < 50) {
            return Op.INSERT_MEMBER;
        }
        if (roll < 60) {
            return Op.DELETE_MEMBER;
        }
        if (roll < 72) {
            return Op.FIND;
        }
        return roll < 90 ? Op.ORACLE_QUERY : Op.BOUNDED_COUNT;
    }

    /** Performs one operation (the test of the checks calls it directly). */
    void perform(Op op) {
        switch (op) {
            case NEW_UNIT -> newUnit();
            case UPDATE -> update();
            case INSERT_MEMBER -> insertMember();
            case DELETE_MEMBER -> deleteMember();
            case FIND -> find();
            case ORACLE_QUERY -> oracleQuery();
            case BOUNDED_COUNT -> boundedCount();
        }
    }

    private void newUnit() {
        long key = nextKey++;
        int statusCount = 1 + random.nextInt(3);
        int photoCount = random.nextInt(3);
        String email = "c" + key + "-0";
        SoakUnit unit = new SoakUnit(key, SoakUnit.Presence.ABSENT, email);
        ledger.churn.put(key, unit);
        ledger.users.started.incrementAndGet();
        ledger.statuses.started.addAndGet(statusCount);
        ledger.photos.started.addAndGet(photoCount);
        Map<String, String> created = new LinkedHashMap<>();
        Consumer<Session> work = session -> {
            User user = new User(key, email);
            session.persist(user);
            for (int j = 0; j < statusCount; j++) {
                Status status = new Status(user, "t" + key + "-" + j);
                session.persist(status);
                created.put(identity(SoakTable.STATUS, status.getId()), status.getText());
            }
            for (int j = 0; j < photoCount; j++) {
                Photo photo = new Photo(key, "b" + key + "-" + j);
                session.persist(photo);
                created.put(identity(SoakTable.PHOTO, photo.getId()), photo.getBlobUrl());
            }
        };
        Outcome outcome = write(Op.NEW_UNIT, unit, created, work);
        if (outcome == Outcome.ACKNOWLEDGED) {
            unit.presence = SoakUnit.Presence.REQUIRED;
            unit.members.putAll(created);
            mine.add(unit);
            ledger.users.acknowledged.incrementAndGet();
            ledger.statuses.acknowledged.addAndGet(statusCount);
            ledger.photos.acknowledged.addAndGet(photoCount);
        } else if (outcome == Outcome.UNKNOWN) {
            unit.presence = SoakUnit.Presence.POSSIBLE;
            unit.possibleMembers.putAll(created);
        }
    }

    private void update() {
        SoakUnit unit = mine.get(random.nextInt(mine.size()));
        String email = "c" + unit.key + "-" + (++unit.updates);
        Set<String> acceptable = unit.acceptableEmails();
        Consumer<Session> work = session -> {
            User user = session.find(User.class, unit.key);
            if (user == null) {
                stats.wrong("acknowledged unit " + unit.key + " not found in its own unit of work");
                return;
            }
            if (!acceptable.contains(user.getEmail())) {
                stats.wrong("unit " + unit.key + " read '" + user.getEmail() + "' in its unit of work, acknowledged: "
                        + acceptable);
            }
            user.setEmail(email);
        };
        Outcome outcome = write(Op.UPDATE, unit, new LinkedHashMap<>(), work);
        if (outcome == Outcome.ACKNOWLEDGED) {
            unit.email = email;
            unit.possibleEmails.clear();
        } else if (outcome == Outcome.UNKNOWN) {
            unit.possibleEmails.add(email);
        }
    }

    private void insertMember() {
        SoakUnit unit = mine.get(random.nextInt(mine.size()));
        boolean photo = random.nextBoolean();
        SoakLedger.Bounds bounds = photo ? ledger.photos : ledger.statuses;
        String value = (photo ? "b" : "t") + unit.key + "-i" + (++unit.updates);
        bounds.started.incrementAndGet();
        Map<String, String> created = new LinkedHashMap<>();
        Consumer<Session> work = session -> {
            if (photo) {
                Photo member = new Photo(unit.key, value);
                session.persist(member);
                created.put(identity(SoakTable.PHOTO, member.getId()), value);
                return;
            }
            User user = session.find(User.class, unit.key);
            if (user == null) {
                stats.wrong("acknowledged unit " + unit.key + " not found in its own unit of work");
                return;
            }
            Status member = new Status(user, value);
            session.persist(member);
            created.put(identity(SoakTable.STATUS, member.getId()), value);
        };
        Outcome outcome = write(Op.INSERT_MEMBER, unit, created, work);
        if (outcome == Outcome.ACKNOWLEDGED) {
            unit.members.putAll(created);
            bounds.acknowledged.incrementAndGet();
        } else if (outcome == Outcome.UNKNOWN) {
            unit.possibleMembers.putAll(created);
        }
    }

    private void deleteMember() {
        SoakUnit unit = mine.get(random.nextInt(mine.size()));
        if (unit.members.isEmpty()) {
            insertMember();
            return;
        }
        List<String> members = unit.members.keySet().stream().sorted().toList();
        String member = members.get(random.nextInt(members.size()));
        boolean photo = member.startsWith(SoakTable.PHOTO.name() + ":");
        String idText = member.substring(member.indexOf(':') + 1);
        Object id = photo ? (Object) Long.valueOf(idText) : UUID.fromString(idText);
        Class<?> type = photo ? Photo.class : Status.class;
        SoakLedger.Bounds bounds = photo ? ledger.photos : ledger.statuses;
        bounds.deletesStarted.incrementAndGet();
        Consumer<Session> work = session -> {
            Object entity = session.find(type, id);
            if (entity == null) {
                stats.wrong("acknowledged member " + member + " of unit " + unit.key
                        + " not found in its unit of work");
                return;
            }
            session.remove(entity);
        };
        Outcome outcome = write(Op.DELETE_MEMBER, unit, new LinkedHashMap<>(), work);
        if (outcome == Outcome.ACKNOWLEDGED) {
            unit.members.remove(member);
            unit.goneMembers.add(member);
            bounds.deletesAcknowledged.incrementAndGet();
        } else if (outcome == Outcome.UNKNOWN) {
            unit.possibleMembers.put(member, unit.members.remove(member));
        }
    }

    /** Reads a unit by id outside and inside a unit of work, and one of its photos by its own id. */
    private void find() {
        SoakUnit unit = random.nextBoolean() ? mine.get(random.nextInt(mine.size()))
                : stable.get(stableLow + random.nextInt((int) (stableHigh - stableLow + 1)));
        User user = retrying(() -> shards.find(User.class, unit.key));
        if (user == null || !unit.acceptableEmails().contains(user.getEmail())) {
            stats.wrong("find(User, " + unit.key + ") returned " + (user == null ? "nothing" : "'" + user.getEmail()
                    + "'") + ", acknowledged: " + unit.acceptableEmails());
        }
        long[] counts = retrying(() -> shards.callInUnit(User.class, unit.key, session -> new long[] {
                session.createSelectionQuery("select count(s) from Status s where s.user.id = :key", Long.class)
                        .setParameter("key", unit.key).getSingleResult(),
                session.createSelectionQuery("select count(p) from Photo p where p.userId = :key", Long.class)
                        .setParameter("key", unit.key).getSingleResult()}));
        if (unit.exact() && (counts[0] != unit.memberCount(SoakTable.STATUS)
                || counts[1] != unit.memberCount(SoakTable.PHOTO))) {
            stats.wrong("unit " + unit.key + " has " + counts[0] + " statuses and " + counts[1]
                    + " photos in its unit of work, acknowledged: " + unit.memberCount(SoakTable.STATUS) + " and "
                    + unit.memberCount(SoakTable.PHOTO));
        }
        unit.members.keySet().stream().filter(member -> member.startsWith(SoakTable.PHOTO.name() + ":")).findFirst()
                .ifPresent(member -> {
                    long photoId = Long.parseLong(member.substring(member.indexOf(':') + 1));
                    Photo photo = retrying(() -> shards.find(Photo.class, photoId));
                    if (photo == null || photo.getUserId() != unit.key
                            || !photo.getBlobUrl().equals(unit.members.get(member))) {
                        stats.wrong("find(Photo, " + photoId + ") of unit " + unit.key + " returned "
                                + (photo == null ? "nothing" : photo.getUserId() + "/" + photo.getBlobUrl()));
                    }
                });
    }

    private void oracleQuery() {
        SoakQuery query = SoakQuery.random(random, stableLow, stableHigh);
        List<Object> actual = retrying(() -> query.onShards(shards));
        List<Object> expected = oracle.answer(query);
        if (!actual.equals(expected)) {
            stats.wrong("fan-out " + query + " returned " + actual + ", the oracle " + expected);
        }
    }

    private void boundedCount() {
        int which = random.nextInt(3);
        SoakLedger.Bounds bounds = which == 0 ? ledger.users : which == 1 ? ledger.statuses : ledger.photos;
        String hql = which == 0 ? "select count(u) from User u where u.id >= :base"
                : which == 1 ? "select count(s) from Status s where s.user.id >= :base"
                : "select count(p) from Photo p where p.userId >= :base";
        long acknowledgedBefore = bounds.acknowledged.get();
        long deletesAcknowledgedBefore = bounds.deletesAcknowledged.get();
        long count = retrying(() -> shards.fanOut().createQuery(hql, Long.class)
                .setParameter("base", SoakLedger.CHURN_BASE).getSingleResult());
        long low = acknowledgedBefore - bounds.deletesStarted.get();
        long high = bounds.started.get() - deletesAcknowledgedBefore;
        if (count < low || count > high) {
            stats.wrong("fan-out '" + hql + "' returned " + count + ", not in [" + low + ", " + high + "]");
        }
    }

    /**
     * Runs {@code work} in the unit's unit of work until it commits, or until it failed in a way that says nothing
     * was written as many times as attempts are allowed. Members persisted by an attempt that failed so are recorded
     * as gone (rolled back) for the end check; any other failure is recorded, and the write's outcome is unknown.
     */
    private Outcome write(Op op, SoakUnit unit, Map<String, String> created, Consumer<Session> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                shards.inUnit(User.class, unit.key, work);
                return Outcome.ACKNOWLEDGED;
            } catch (RuntimeException e) {
                if (!nothingWritten(e)) {
                    stats.failed(op, new IllegalStateException("write to unit " + unit.key + " failed; it may or"
                            + " may not have committed", e));
                    return Outcome.UNKNOWN;
                }
                unit.goneMembers.addAll(created.keySet());
                created.clear();
                stats.retried(e);
                if (attempt == MAX_ATTEMPTS) {
                    return Outcome.NOT_WRITTEN;
                }
                pause();
            }
        }
    }

    /** Runs a read again while it fails in a way that is safe to retry. */
    private <T> T retrying(Supplier<T> read) {
        for (int attempt = 1; ; attempt++) {
            try {
                return read.get();
            } catch (RuntimeException e) {
                if (!nothingWritten(e) || attempt == MAX_ATTEMPTS) {
                    throw e;
                }
                stats.retried(e);
                pause();
            }
        }
    }

    /**
     * Whether the failure says the unit of work was rolled back with nothing written: the move's
     * {@link ShardMovingException} (nothing ran), or a lock conflict the database resolved by rolling back (a
     * deadlock victim, a lock wait timeout).
     */
    static boolean nothingWritten(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ShardMovingException || t instanceof jakarta.persistence.PessimisticLockException
                    || t instanceof jakarta.persistence.LockTimeoutException
                    || t instanceof org.hibernate.PessimisticLockException
                    || t instanceof org.hibernate.exception.LockAcquisitionException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().equals("40001") || sql.getSQLState().equals("40P01"))) {
                return true;
            }
        }
        return false;
    }

    private void pause() {
        try {
            Thread.sleep(2 + random.nextInt(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String identity(SoakTable table, Object id) {
        if (id == null) {
            throw new IllegalStateException("No id generated at persist for a " + table);
        }
        return table.name() + ":" + SoakTable.idText(id);
    }
}
