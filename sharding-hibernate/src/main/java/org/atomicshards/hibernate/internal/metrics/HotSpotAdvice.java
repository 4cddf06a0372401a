package org.atomicshards.hibernate.internal.metrics;

import java.util.List;
import java.util.Optional;

import org.atomicshards.hibernate.HotSpotReport;
import org.atomicshards.hibernate.HotSpotReport.HotKey;
import org.atomicshards.hibernate.HotSpotReport.Move;
import org.atomicshards.hibernate.HotSpotReport.ShardTraffic;
import org.atomicshards.hibernate.HotSpotReport.VirtualShardTraffic;

/**
 * Decides the move that evens out the hottest and coldest physical shards: the hottest virtual shard of the hottest
 * shard whose move lowers the busiest of the two by at least {@link #EVEN} of all traffic (so the coldest shard does
 * not just become the new hot spot). Says when one virtual shard alone is the hot spot, and when a single
 * key dominates its virtual shard (no move spreads one key).
 */
final class HotSpotAdvice {

    /** Shards within this share of each other count as even. */
    static final double EVEN = 0.10;

    private HotSpotAdvice() {
    }

    static Optional<Move> suggest(List<ShardTraffic> shards, List<VirtualShardTraffic> virtuals,
                                  List<HotKey> dominant, double total, List<String> advice) {
        for (HotKey key : dominant) {
            advice.add(String.format("Key %s of unit %s carries at least %.0f%% of virtual shard %d: moving or "
                    + "splitting virtual shards does not spread one key; cache it, or spread its unit over more keys",
                    key.key(), key.unit(), 100 * key.share(), key.virtualShard()));
        }
        if (shards.size() < 2 || virtuals.isEmpty()) {
            return Optional.empty();
        }
        ShardTraffic hot = shards.get(0);
        ShardTraffic cold = shards.get(shards.size() - 1);
        long gap = hot.total() - cold.total();
        if (gap <= EVEN * total) {
            advice.add("The shards are even (within " + Math.round(100 * EVEN) + "% of the traffic)");
            return Optional.empty();
        }
        VirtualShardTraffic best = virtuals.stream() // hottest first
                .filter(v -> v.owner().equals(hot.shard())
                        && hot.total() - Math.max(hot.total() - v.total(), cold.total() + v.total()) >= EVEN * total)
                .findFirst().orElse(null);
        if (best == null) {
            VirtualShardTraffic top = virtuals.stream().filter(v -> v.owner().equals(hot.shard())).findFirst()
                    .orElse(null);
            boolean oneKey = top != null && dominant.stream().anyMatch(k -> k.virtualShard() == top.virtualShard());
            advice.add(top == null
                    ? "Shard " + hot.shard().name() + " is hottest by traffic of policies without virtual shards"
                    : String.format("Virtual shard %d alone carries %.0f%% of the traffic: moving it only moves the "
                            + "hot spot; %s", top.virtualShard(), 100 * top.share(), oneKey
                            ? "most of it is one key, which no split spreads"
                            : "split it (more virtual shards) or spread its keys"));
            return Optional.empty();
        }
        Move move = new Move(best.virtualShard(), hot.shard(), cold.shard(), best.share());
        advice.add(String.format("Move virtual shard %d (%.0f%% of the traffic) from shard %s (%.0f%%) to shard %s "
                + "(%.0f%%)", move.virtualShard(), 100 * move.share(), hot.shard().name(), 100 * hot.share(),
                cold.shard().name(), 100 * cold.share()));
        return Optional.of(move);
    }
}
