package org.atomicshards.hibernate;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything the soak test's writers did: each churn unit's known state ({@link SoakUnit}), and for the rows of each
 * table the counts that bound what a concurrent fan-out count may return.
 */
final class SoakLedger {

    /** The first key of the churn units; the stable units' keys lie below it. */
    static final long CHURN_BASE = 1_000_000L;

    final Map<Long, SoakUnit> churn = new ConcurrentHashMap<>();
    final Bounds users = new Bounds();
    final Bounds statuses = new Bounds();
    final Bounds photos = new Bounds();

    /**
     * Monotonic counts of one table's churn rows. At any moment the committed rows number between
     * {@code acknowledged - deletesStarted} and {@code started - deletesAcknowledged}: a writer counts an insert or
     * delete as started before its unit of work begins and as acknowledged after it committed. So a count taken
     * between two moments lies in {@code [acknowledged(before) - deletesStarted(after), started(after) -
     * deletesAcknowledged(before)]}, even when each shard answers at a different moment in between.
     */
    static final class Bounds {
        final AtomicLong started = new AtomicLong();
        final AtomicLong acknowledged = new AtomicLong();
        final AtomicLong deletesStarted = new AtomicLong();
        final AtomicLong deletesAcknowledged = new AtomicLong();

        /** The lower bound's part read before the query. */
        long lowBefore() {
            return acknowledged.get();
        }

        /** The upper bound's part read before the query. */
        long highBefore() {
            return deletesAcknowledged.get();
        }
    }
}
