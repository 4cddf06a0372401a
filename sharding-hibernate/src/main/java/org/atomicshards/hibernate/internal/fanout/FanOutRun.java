package org.atomicshards.hibernate.internal.fanout;

import java.util.ArrayList;
import java.util.List;

import org.atomicshards.hibernate.ExecutionPolicy;
import org.atomicshards.hibernate.ShardFailure;
import org.atomicshards.hibernate.ShardQueryFailedException;

/**
 * The open cursors of one executed fan-out query and what failed so far. Reading a shard's rows after the hand-over
 * (while streaming) can still fail; the policy decides: COMPLETE closes everything and throws, PARTIAL drops that
 * shard and records it.
 */
final class FanOutRun implements AutoCloseable {

    private final List<ShardCursor> cursors;
    private final List<ShardFailure> failures;
    private final ExecutionPolicy policy;
    /** How many rows a cursor reads when the merge finds its buffer empty. */
    private final int refill;
    private final int targetCount;
    private final RowMeter meter;

    /** @param refill how many rows a cursor reads when the merge finds its buffer empty (a fetch, or one row) */
    FanOutRun(List<ShardCursor> cursors, List<ShardFailure> failures, ExecutionPolicy policy, int refill,
              int targetCount, RowMeter meter) {
        this.cursors = new ArrayList<>(cursors);
        this.failures = failures;
        this.policy = policy;
        this.refill = refill;
        this.targetCount = targetCount;
        this.meter = meter;
    }

    List<ShardCursor> cursors() {
        return cursors;
    }

    List<ShardFailure> failures() {
        return failures;
    }

    RowMeter meter() {
        return meter;
    }

    /** The cursor's next row, or null when it is exhausted (or failed under PARTIAL). */
    Object peek(ShardCursor cursor) {
        try {
            return cursor.peek(refill);
        }
        catch (RuntimeException e) {
            failures.add(new ShardFailure(cursor.shard(), e));
            cursor.close();
            if (policy == ExecutionPolicy.COMPLETE) {
                close();
                throw new ShardQueryFailedException(failures, targetCount);
            }
            return null;
        }
    }

    Object poll(ShardCursor cursor) {
        return cursor.poll();
    }

    @Override
    public void close() {
        for (ShardCursor cursor : cursors) {
            cursor.close();
        }
    }
}
