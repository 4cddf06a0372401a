package org.atomicshards.hibernate;

import java.util.List;
import java.util.Optional;

/**
 * Where the traffic of a sharded factory went since it started: reads (finds routed by key) and writes (units of
 * work, persists, sessions opened for a key) counted per virtual shard as they are routed, the physical shards' share
 * under the virtual→physical map in force now, the move that would even the shards out, and the keys that dominate
 * their virtual shard. Counts are exact; the hot keys come from a sample of the traffic (one route in
 * {@value #KEY_SAMPLE_RATE}). Traffic that reached the shards by fan-out or through sessions opened on a shard is not
 * counted: only routing by key tells which virtual shard is asked. Obtained from
 * {@link ShardedSessionFactory#hotSpots()}; an immutable snapshot.
 *
 * @param reads                routed reads counted
 * @param writes               routed writes counted
 * @param shards               every active physical shard, hottest first
 * @param hottestVirtualShards the virtual shards with traffic, hottest first (at most {@value #TOP_VIRTUAL_SHARDS})
 * @param suggestedMove        the move of one virtual shard that evens out the hottest and coldest shards; empty when
 *                             the shards are even or no move of a whole virtual shard would help
 * @param dominantKeys         keys that carry at least half of their virtual shard's sampled traffic, hottest first
 * @param advice               what an operator should do, in sentences
 */
public record HotSpotReport(long reads, long writes, List<ShardTraffic> shards,
                            List<VirtualShardTraffic> hottestVirtualShards, Optional<Move> suggestedMove,
                            List<HotKey> dominantKeys, List<String> advice) {

    /** One in how many routes feeds the hot-key sample. */
    public static final int KEY_SAMPLE_RATE = 64;

    /** How many virtual shards the report lists at most. */
    public static final int TOP_VIRTUAL_SHARDS = 10;

    public HotSpotReport {
        shards = List.copyOf(shards);
        hottestVirtualShards = List.copyOf(hottestVirtualShards);
        dominantKeys = List.copyOf(dominantKeys);
        advice = List.copyOf(advice);
    }

    /** Reads and writes counted. */
    public long total() {
        return reads + writes;
    }

    /**
     * Traffic of one physical shard: its virtual shards' counts plus its traffic of policies without virtual shards.
     *
     * @param share of all counted traffic, 0 to 1
     */
    public record ShardTraffic(ShardId shard, long reads, long writes, double share) {
        public long total() {
            return reads + writes;
        }
    }

    /**
     * Traffic of one virtual shard.
     *
     * @param owner the physical shard owning it now
     * @param share of all counted traffic, 0 to 1
     */
    public record VirtualShardTraffic(int virtualShard, ShardId owner, long reads, long writes, double share) {
        public long total() {
            return reads + writes;
        }
    }

    /**
     * Moving {@code virtualShard} from {@code from} to {@code to} (e.g. with the resharding operations).
     *
     * @param share the share of all traffic that moves
     */
    public record Move(int virtualShard, ShardId from, ShardId to, double share) {
    }

    /**
     * A key that dominates its virtual shard: moving or splitting virtual shards does not spread its traffic.
     *
     * @param unit  the unit's root entity (simple name)
     * @param share of the virtual shard's sampled traffic at least, 0 to 1
     */
    public record HotKey(String unit, Object key, int virtualShard, double share) {
    }

    /** The report as a few lines of text, for a log or a console. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("Traffic: ").append(reads).append(" reads, ").append(writes)
                .append(" writes\n");
        for (ShardTraffic shard : shards) {
            text.append(String.format("  shard %-12s %10d reads %10d writes %6.1f%%%n", shard.shard().name(),
                    shard.reads(), shard.writes(), 100 * shard.share()));
        }
        for (VirtualShardTraffic v : hottestVirtualShards) {
            text.append(String.format("  virtual shard %6d on %-12s %10d reads %10d writes %6.1f%%%n",
                    v.virtualShard(), v.owner().name(), v.reads(), v.writes(), 100 * v.share()));
        }
        advice.forEach(line -> text.append("  ").append(line).append('\n'));
        return text.toString();
    }
}
