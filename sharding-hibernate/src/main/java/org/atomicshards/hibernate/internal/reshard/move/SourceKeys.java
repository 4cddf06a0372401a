package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;

/**
 * The units a move takes from one source, found by one scan of the source's tables for all the move's batches from it
 * (a scan per batch made a move cost batches x units on the source).
 *
 * <p>Before the scan, every virtual shard the move takes from the source goes {@code MOVING} (those still
 * {@code OWNED}): from then on every write to their units is logged, so a unit created after the scan reaches its
 * batch through the batch's catch-up, and the scan misses nothing a batch must move. One instance per source per run
 * of a move (a resumed move scans again). Thread-safe.
 */
public final class SourceKeys {

    private final List<Integer> buckets;
    private final Map<RowCopier, Map<Integer, Set<Object>>> scanned = new HashMap<>();
    private final BatchScope.MoveOptionsView writerWait;
    private boolean marked;

    /**
     * @param buckets every virtual shard the move takes from the source, in all its batches
     * @param writerWait how long to wait for the writers that entered before they went {@code MOVING}
     */
    SourceKeys(Collection<Integer> buckets, BatchScope.MoveOptionsView writerWait) {
        this.buckets = List.copyOf(buckets);
        this.writerWait = writerWait;
    }

    /** The keys of {@code copier}'s units on {@code batchBuckets}, as found on the source (autocommit). */
    synchronized Set<Object> keysOf(RowCopier copier, Collection<Integer> batchBuckets, Connection source)
            throws SQLException {
        if (!marked) {
            OwnershipFence.startMoving(source, buckets, List.of(OwnershipFence.OWNED), writerWait.freezeTimeout(),
                    writerWait.attempts(), writerWait.guard());
            marked = true;
        }
        Map<Integer, Set<Object>> byBucket = scanned.get(copier);
        if (byBucket == null) {
            byBucket = new HashMap<>();
            Set<Integer> moving = new HashSet<>(buckets);
            for (Object key : copier.scanKeys(source)) {
                int bucket = copier.tables().unit().placement().virtualShardOf(key);
                if (moving.contains(bucket)) {
                    byBucket.computeIfAbsent(bucket, b -> new HashSet<>()).add(key);
                }
            }
            scanned.put(copier, byBucket);
        }
        Set<Object> keys = new HashSet<>();
        for (int bucket : batchBuckets) {
            keys.addAll(byBucket.getOrDefault(bucket, Set.of()));
        }
        return keys;
    }
}
