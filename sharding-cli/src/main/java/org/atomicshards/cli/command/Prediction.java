package org.atomicshards.cli.command;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.cli.internal.Skew;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.routing.ConsistentHashRing;
import org.atomicshards.hibernate.internal.routing.StableHash;

/**
 * How the rows of one candidate key would spread over N shards under one policy, computed with the runtime's own
 * hash and ring so that the prediction is what the runtime would do with shards named {@code s0..s<N-1>}.
 *
 * @param policy        {@code hash}, {@code range} or {@code consistent_hash}
 * @param shards        N
 * @param rowsPerShard  rows per shard, index = shard; null when the policy cannot route this key type
 * @param unitsPerShard units (distinct keys) per shard; null likewise
 * @param skew          spread of the rows; null likewise
 * @param note          what else the operator should know (range: where new keys go), or why there is no prediction
 */
record Prediction(String policy, int shards, long[] rowsPerShard, long[] unitsPerShard, Skew skew, String note) {

    static final String HASH = "hash";
    static final String RANGE = "range";
    static final String CONSISTENT_HASH = "consistent_hash";

    /** HASH: the runtime's stable hash modulo the virtual shards, the virtual shards split evenly and contiguously. */
    static Prediction hash(Map<Object, Long> rowsByKey, int shards, int virtualShards) {
        return spread(HASH, rowsByKey, shards, key -> {
            int virtualShard = (int) Long.remainderUnsigned(StableHash.of(key), virtualShards);
            return (int) ((long) virtualShard * shards / virtualShards);
        }, null);
    }

    /** CONSISTENT_HASH: the runtime's ring over shards {@code s0..s<N-1>} with {@code ringNodes} nodes each. */
    static Prediction consistentHash(Map<Object, Long> rowsByKey, int shards, int ringNodes) {
        List<ShardId> ids = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            ids.add(ShardId.of("s" + i));
        }
        ConsistentHashRing ring = new ConsistentHashRing(ids, ringNodes);
        return spread(CONSISTENT_HASH, rowsByKey, shards, key -> ids.indexOf(ring.shardFor(key)), null);
    }

    /**
     * RANGE: N ranges of equal width between the smallest and the largest key, the way ranges are usually drawn up
     * front. A monotonic key (a sequence, a time) keeps growing past the last range, so every new unit lands on the
     * last shard.
     */
    static Prediction range(Map<Object, Long> rowsByKey, int shards) {
        BigDecimal min = null;
        BigDecimal max = null;
        for (Object key : rowsByKey.keySet()) {
            BigDecimal value = numeric(key);
            if (value == null) {
                return new Prediction(RANGE, shards, null, null, null,
                        "no prediction: range needs a numeric key, this one is " + key.getClass().getSimpleName());
            }
            min = min == null || value.compareTo(min) < 0 ? value : min;
            max = max == null || value.compareTo(max) > 0 ? value : max;
        }
        if (min == null) {
            return new Prediction(RANGE, shards, null, null, null, "no prediction: no keys");
        }
        BigDecimal low = min;
        BigDecimal width = max.subtract(min).add(BigDecimal.ONE);
        BigDecimal n = BigDecimal.valueOf(shards);
        String note = "ranges of equal width over " + min.toPlainString() + ".." + max.toPlainString()
                + "; a monotonic key sends every new unit (key above " + max.toPlainString() + ") to the last shard, "
                + "which then takes all the new writes";
        return spread(RANGE, rowsByKey, shards, key -> numeric(key).subtract(low).multiply(n)
                .divideToIntegralValue(width).min(n.subtract(BigDecimal.ONE)).intValue(), note);
    }

    private static BigDecimal numeric(Object key) {
        if (key instanceof Long || key instanceof Integer || key instanceof Short || key instanceof Byte) {
            return BigDecimal.valueOf(((Number) key).longValue());
        }
        if (key instanceof BigInteger big) {
            return new BigDecimal(big);
        }
        if (key instanceof BigDecimal decimal) {
            return decimal;
        }
        return null;
    }

    private interface ShardOfKey {
        int shardOf(Object key);
    }

    private static Prediction spread(String policy, Map<Object, Long> rowsByKey, int shards, ShardOfKey shardOf, String note) {
        long[] rows = new long[shards];
        long[] units = new long[shards];
        try {
            for (Map.Entry<Object, Long> entry : rowsByKey.entrySet()) {
                int shard = shardOf.shardOf(entry.getKey());
                rows[shard] += entry.getValue();
                units[shard]++;
            }
        } catch (IllegalArgumentException e) {
            return new Prediction(policy, shards, null, null, null, "no prediction: " + e.getMessage());
        }
        return new Prediction(policy, shards, rows, units, Skew.of(rows), note);
    }

    /** The share of all rows on the fullest shard, 0..1. */
    double largestShardShare() {
        long total = Arrays.stream(rowsPerShard).sum();
        return total == 0 ? 0 : (double) Arrays.stream(rowsPerShard).max().orElse(0) / total;
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("policy", policy);
        json.put("shards", shards);
        json.put("rowsPerShard", rowsPerShard == null ? null : Arrays.stream(rowsPerShard).boxed().toList());
        json.put("unitsPerShard", unitsPerShard == null ? null : Arrays.stream(unitsPerShard).boxed().toList());
        json.put("skew", skew == null ? null : skew.toJson());
        json.put("largestShardShare", rowsPerShard == null ? null : Math.round(largestShardShare() * 10_000d) / 10_000d);
        if (policy.equals(RANGE) && rowsPerShard != null) {
            json.put("newUnitsShard", "s" + (shards - 1));
        }
        json.put("note", note);
        return json;
    }
}
