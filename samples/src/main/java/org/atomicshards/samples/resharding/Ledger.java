package org.atomicshards.samples.resharding;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every write the library acknowledged (the unit of work returned normally), per unit. A write is recorded only
 * after its commit, so the ledger never holds a write that may not have happened. Also counts the users and statuses
 * whose writes were started, so a fan-out count taken while writes run has bounds: at least what was acknowledged
 * before it began, at most what was started when it ended. Thread-safe.
 */
final class Ledger {

    private final Map<Long, Unit> units = new ConcurrentHashMap<>();
    private final AtomicLong usersStarted = new AtomicLong();
    private final AtomicLong usersAcknowledged = new AtomicLong();
    private final AtomicLong statusesStarted = new AtomicLong();
    private final AtomicLong statusesAcknowledged = new AtomicLong();

    /** Called before a write that may create a user and {@code statuses} statuses. */
    void starting(int users, int statuses) {
        usersStarted.addAndGet(users);
        statusesStarted.addAndGet(statuses);
    }

    /** A new unit was committed with these statuses and photos. */
    void created(long user, String email, Set<Long> statuses, Set<UUID> photos) {
        Unit unit = new Unit(email);
        unit.statuses.addAll(statuses);
        unit.photos.addAll(photos);
        if (units.putIfAbsent(user, unit) != null) {
            throw new IllegalStateException("User " + user + " was acknowledged as new twice");
        }
        usersAcknowledged.incrementAndGet();
        statusesAcknowledged.addAndGet(statuses.size());
    }

    /** A unit's email was changed and a status added, in one committed unit of work. */
    void updated(long user, String email, long status) {
        Unit unit = unit(user);
        synchronized (unit) {
            unit.email = email;
            unit.statuses.add(status);
        }
        statusesAcknowledged.incrementAndGet();
    }

    /** A photo was committed to a unit. */
    void photoAdded(long user, UUID photo) {
        Unit unit = unit(user);
        synchronized (unit) {
            unit.photos.add(photo);
        }
    }

    /** The last acknowledged email of a unit. */
    String email(long user) {
        Unit unit = unit(user);
        synchronized (unit) {
            return unit.email;
        }
    }

    long usersStarted() {
        return usersStarted.get();
    }

    long usersAcknowledged() {
        return usersAcknowledged.get();
    }

    long statusesStarted() {
        return statusesStarted.get();
    }

    long statusesAcknowledged() {
        return statusesAcknowledged.get();
    }

    /** A copy of every acknowledged unit; take it once the writers have stopped. */
    Map<Long, AcknowledgedUnit> snapshot() {
        Map<Long, AcknowledgedUnit> copy = new HashMap<>();
        units.forEach((id, unit) -> {
            synchronized (unit) {
                copy.put(id, new AcknowledgedUnit(unit.email, unit.statuses, unit.photos));
            }
        });
        return copy;
    }

    private Unit unit(long user) {
        Unit unit = units.get(user);
        if (unit == null) {
            throw new IllegalStateException("User " + user + " was never acknowledged");
        }
        return unit;
    }

    private static final class Unit {
        private String email;
        private final Set<Long> statuses = new HashSet<>();
        private final Set<UUID> photos = new HashSet<>();

        private Unit(String email) {
            this.email = email;
        }
    }
}
