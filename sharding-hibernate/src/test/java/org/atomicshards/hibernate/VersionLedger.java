package org.atomicshards.hibernate;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.atomicshards.hibernate.model.User;

/**
 * The adversarial suite's ledger of writes, per unit: every version a writer started, the highest one whose commit
 * returned (acknowledged), and those whose outcome is unknown (the commit failed in a way that does not say nothing was
 * written). A version is a stamp from one clock shared by every writer, written as the user's email {@code "v<n>"}, so
 * a unit's versions grow with each of its writes, and one bulk statement can give several units the same version.
 * Each unit has one writer, so its acknowledged version only grows; any thread may read.
 *
 * <p>Readers are held to bounds taken from here ({@link #checkRead}): a read by id that began after version n of a
 * unit was acknowledged sees a version of at least n, which a writer of that unit started; never nothing, never a
 * version nobody wrote.
 */
final class VersionLedger {

    /** One unit: its key, its virtual shard, and what its writer did. */
    static final class Unit {
        final long key;
        final int virtualShard;
        final Set<Long> started = ConcurrentHashMap.newKeySet();
        final Set<Long> unknown = ConcurrentHashMap.newKeySet();
        /** The statuses added by acknowledged writes (texts {@code "v<n>"}) and by writes of unknown outcome. */
        final Set<String> statuses = ConcurrentHashMap.newKeySet();
        final Set<String> possibleStatuses = ConcurrentHashMap.newKeySet();
        private volatile long acknowledged;

        Unit(long key, int virtualShard) {
            this.key = key;
            this.virtualShard = virtualShard;
            started.add(0L);
        }

        long acknowledged() {
            return acknowledged;
        }

        /** The versions the unit may hold now: its last acknowledged one, or a later one of unknown outcome. */
        boolean mayHold(long version) {
            return version == acknowledged || version > acknowledged && unknown.contains(version);
        }

        @Override
        public String toString() {
            List<Long> later = unknown.stream().filter(v -> v > acknowledged).sorted().toList();
            return "unit " + key + " (virtual shard " + virtualShard + ", acknowledged v" + acknowledged
                    + (later.isEmpty() ? "" : ", later of unknown outcome " + (later.size() <= 5 ? later
                    : later.subList(0, 5) + " and " + (later.size() - 5) + " more")) + ")";
        }
    }

    private final AtomicLong clock = new AtomicLong();
    private final Map<Long, Unit> units = new TreeMap<>();
    /** The first 100 reads that broke their bounds (a writer's own reads too); {@link #wrongCount} counts all. */
    final List<String> wrongAnswers = new CopyOnWriteArrayList<>();
    final AtomicLong wrongCount = new AtomicLong();

    /** Registers unit {@code key} as seeded with version 0 ({@code "v0"}) and acknowledged. */
    void seeded(long key, int virtualShard) {
        units.put(key, new Unit(key, virtualShard));
    }

    Unit unit(long key) {
        return units.get(key);
    }

    Map<Long, Unit> units() {
        return units;
    }

    /** A new version for the next write (never reused, even when that write is not made). */
    long nextVersion() {
        return clock.incrementAndGet();
    }

    /** Records that a write of {@code version} to these units is about to begin. */
    void started(List<Unit> written, long version) {
        written.forEach(unit -> unit.started.add(version));
    }

    /** Records that the write of {@code version} to these units committed (its commit returned). */
    void acknowledged(List<Unit> written, long version, boolean withStatus) {
        for (Unit unit : written) {
            unit.acknowledged = Math.max(unit.acknowledged, version);
            if (withStatus) {
                unit.statuses.add(email(version));
            }
        }
    }

    /** Records that the write of {@code version} to these units may or may not have committed. */
    void unknown(List<Unit> written, long version, boolean withStatus) {
        for (Unit unit : written) {
            unit.unknown.add(version);
            if (withStatus) {
                unit.possibleStatuses.add(email(version));
            }
        }
    }

    static String email(long version) {
        return "v" + version;
    }

    /** The version an email holds, or -1 if it is not one a writer writes. */
    static long version(String email) {
        if (email == null || !email.startsWith("v")) {
            return -1;
        }
        try {
            return Long.parseLong(email.substring(1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Checks a read of {@code unit} that began when its acknowledged version was {@code acknowledgedBefore} and
     * returned {@code user} (null: found nothing); records a wrong answer if it broke its bounds.
     *
     * @return whether the read kept its bounds
     */
    boolean checkRead(String path, Unit unit, long acknowledgedBefore, User user) {
        String problem = problem(unit, acknowledgedBefore, user);
        if (problem != null) {
            wrong(path + " of " + unit + ": " + problem);
        }
        return problem == null;
    }

    /** Records a wrong answer. */
    void wrong(String answer) {
        if (wrongCount.incrementAndGet() <= 100) {
            wrongAnswers.add(answer);
        }
    }

    /** What is wrong with the read, or null. */
    static String problem(Unit unit, long acknowledgedBefore, User user) {
        if (user == null) {
            return "found nothing, yet the unit exists (v" + acknowledgedBefore + " acknowledged before the read)";
        }
        if (user.getId() != unit.key) {
            return "returned user " + user.getId();
        }
        long version = version(user.getEmail());
        if (version < acknowledgedBefore) {
            return "read '" + user.getEmail() + "', older than v" + acknowledgedBefore
                    + ", acknowledged before the read began";
        }
        if (!unit.started.contains(version)) {
            return "read '" + user.getEmail() + "', which no write of this unit started";
        }
        return null;
    }
}
