package org.atomicshards.hibernate.admin;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;

/**
 * What a finished move did.
 *
 * @param operationId the move's id (also in the catalog's operation log)
 * @param virtualShards the virtual shards moved
 * @param target the shard that owns them now
 * @param units units moved (each counted once)
 * @param rows rows moved
 * @param duration from start to finish
 * @param writePauses for each batch, how long writes to its virtual shards waited (freeze to promotion)
 * @param mapVersion the map version in force after the last switch
 * @param warnings what the move found on the way that did not stop it but deserves a fix (a source table the move
 *        could only scan whole to find a unit's rows, for lack of an index), also logged; empty if none
 */
public record MoveReport(String operationId, Set<Integer> virtualShards, ShardId target, long units, long rows,
                         Duration duration, List<Duration> writePauses, int mapVersion, List<String> warnings) {

    public MoveReport {
        warnings = List.copyOf(warnings);
    }

    /** A report without warnings. */
    public MoveReport(String operationId, Set<Integer> virtualShards, ShardId target, long units, long rows,
                      Duration duration, List<Duration> writePauses, int mapVersion) {
        this(operationId, virtualShards, target, units, rows, duration, writePauses, mapVersion, List.of());
    }

    /** Units per second over the whole move. */
    public double unitsPerSecond() {
        return duration.isZero() ? units : units * 1000.0 / Math.max(1, duration.toMillis());
    }

    /** The longest write pause of a batch. */
    public Duration longestWritePause() {
        return writePauses.stream().max(Duration::compareTo).orElse(Duration.ZERO);
    }
}
