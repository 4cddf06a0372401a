package org.atomicshards.hibernate.internal.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

import org.atomicshards.hibernate.HotSpotReport;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.ShardDirectory;

/**
 * Counts the reads and writes routed by key, per virtual shard (per physical shard for policies without virtual
 * shards), and samples the keys into a {@link KeySketch} per virtual shard. The caller passes the virtual shard it
 * routed with; the hot path is one atomic increment and, one route in
 * {@value HotSpotReport#KEY_SAMPLE_RATE}, a synchronized update of that virtual shard's sketch.
 */
public final class Traffic {

    /** Counts nothing. */
    public static final Traffic OFF = new Traffic(false, 0);

    static final int SKETCH_CAPACITY = 8;
    /** Below this many samples a virtual shard's top key is not reported as dominant (too little to tell). */
    static final long MIN_SAMPLES = 10;
    static final double DOMINANT_SHARE = 0.5;

    private final boolean enabled;
    /** Reads and writes per virtual shard, side by side ({@code 2 * v} and {@code 2 * v + 1}): see {@link #record}. */
    private final AtomicLongArray counts;
    private final int virtualShards;
    private final AtomicReferenceArray<KeySketch> sketches;
    private final Map<ShardId, LongAdder[]> withoutVirtualShard = new ConcurrentHashMap<>();

    private Traffic(boolean enabled, int virtualShards) {
        this.enabled = enabled;
        this.virtualShards = virtualShards;
        this.counts = new AtomicLongArray(2 * virtualShards);
        this.sketches = new AtomicReferenceArray<>(virtualShards);
    }

    /**
     * Traffic counts for {@code virtualShards} virtual shards, unless {@link ShardingSettings#HOT_SPOTS_ENABLED} is
     * {@code false}.
     *
     * @throws ShardConfigurationException if the setting is neither true nor false
     */
    public static Traffic from(Map<String, Object> properties, int virtualShards) {
        Object value = properties.get(ShardingSettings.HOT_SPOTS_ENABLED);
        String text = value == null ? "true" : value.toString().trim();
        if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.HOT_SPOTS_ENABLED + "' is '" + text
                    + "'. Fix: set it to true or false");
        }
        return Boolean.parseBoolean(text) ? new Traffic(true, virtualShards) : OFF;
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * A read of the unit with the checked {@code key} on {@code shard} (a find routed by key).
     *
     * @param virtualShard the key's virtual shard as routed, or {@link SelectionPolicy#NO_VIRTUAL_SHARD}
     */
    public void read(UnitRoutingImpl unit, Object key, int virtualShard, ShardId shard) {
        if (enabled) {
            record(unit, key, virtualShard, shard, 0);
        }
    }

    /** A write of the unit with the checked {@code key} on {@code shard} (a unit of work, a persist). */
    public void write(UnitRoutingImpl unit, Object key, int virtualShard, ShardId shard) {
        if (enabled) {
            record(unit, key, virtualShard, shard, 1);
        }
    }

    /**
     * One array of counters rather than a {@link LongAdder} per virtual shard: each unit of work increments the counter
     * of its key's virtual shard, rarely in the CPU's caches, and 16 bytes per virtual shard stay in them far more often
     * than two adders of their own (with the adders that one increment was 1 % of a unit of work on H2, and the count
     * as a whole cost 0.3 µs of its 17 µs; with the array, too little to measure). Threads contend only for the line of
     * the four virtual shards they write at the same moment, as they would for an {@code AtomicLong} per virtual shard.
     */
    private void record(UnitRoutingImpl unit, Object key, int virtualShard, ShardId shard, int column) {
        if (virtualShard < 0 || virtualShard >= virtualShards) {
            withoutVirtualShard.computeIfAbsent(shard, s -> adders(2))[column].increment();
            return;
        }
        counts.getAndIncrement(2 * virtualShard + column);
        if (ThreadLocalRandom.current().nextInt(HotSpotReport.KEY_SAMPLE_RATE) == 0) {
            sketch(virtualShard).add(new UnitKey(unit.simpleName(), key));
        }
    }

    private KeySketch sketch(int virtualShard) {
        KeySketch sketch = sketches.get(virtualShard);
        if (sketch == null) {
            sketches.compareAndSet(virtualShard, null, new KeySketch(SKETCH_CAPACITY));
            sketch = sketches.get(virtualShard);
        }
        return sketch;
    }

    /** Starts counting afresh (e.g. after the shards were rebalanced). */
    public void reset() {
        for (int v = 0; v < virtualShards; v++) {
            counts.set(2 * v, 0);
            counts.set(2 * v + 1, 0);
            KeySketch sketch = sketches.get(v);
            if (sketch != null) {
                sketch.clear();
            }
        }
        withoutVirtualShard.clear();
    }

    /**
     * The report over the map in force: a virtual shard's traffic counts for the shard owning it now.
     *
     * @param shards the active physical shards, in topology order
     */
    public HotSpotReport report(ShardDirectory directory, List<ShardId> shards) {
        Map<ShardId, long[]> byShard = new LinkedHashMap<>();
        shards.forEach(shard -> byShard.put(shard, new long[2]));
        List<long[]> virtuals = new ArrayList<>(); // {virtual shard, reads, writes}
        long totalReads = 0;
        long totalWrites = 0;
        int count = Math.min(virtualShards, directory.virtualShards());
        for (int v = 0; v < count; v++) {
            long r = counts.get(2 * v);
            long w = counts.get(2 * v + 1);
            if (r + w == 0) {
                continue;
            }
            virtuals.add(new long[] {v, r, w});
            long[] owner = byShard.computeIfAbsent(directory.shardOf(v), s -> new long[2]);
            owner[0] += r;
            owner[1] += w;
            totalReads += r;
            totalWrites += w;
        }
        for (Map.Entry<ShardId, LongAdder[]> entry : withoutVirtualShard.entrySet()) {
            long[] shardCounts = byShard.computeIfAbsent(entry.getKey(), s -> new long[2]);
            long r = entry.getValue()[0].sum();
            long w = entry.getValue()[1].sum();
            shardCounts[0] += r;
            shardCounts[1] += w;
            totalReads += r;
            totalWrites += w;
        }
        double total = Math.max(1, totalReads + totalWrites);
        List<HotSpotReport.ShardTraffic> shardTraffic = new ArrayList<>();
        byShard.forEach((shard, c) -> shardTraffic.add(
                new HotSpotReport.ShardTraffic(shard, c[0], c[1], (c[0] + c[1]) / total)));
        shardTraffic.sort(Comparator.comparingLong(HotSpotReport.ShardTraffic::total).reversed());
        virtuals.sort(Comparator.comparingLong((long[] v) -> v[1] + v[2]).reversed());
        List<HotSpotReport.VirtualShardTraffic> hottest = virtuals.stream()
                .map(v -> new HotSpotReport.VirtualShardTraffic((int) v[0], directory.shardOf((int) v[0]), v[1], v[2],
                        (v[1] + v[2]) / total))
                .toList();
        List<HotSpotReport.HotKey> dominant = dominantKeys(hottest);
        List<String> advice = new ArrayList<>();
        Optional<HotSpotReport.Move> move = HotSpotAdvice.suggest(shardTraffic, hottest, dominant, total, advice);
        return new HotSpotReport(totalReads, totalWrites, shardTraffic,
                hottest.subList(0, Math.min(HotSpotReport.TOP_VIRTUAL_SHARDS, hottest.size())), move, dominant,
                advice);
    }

    private List<HotSpotReport.HotKey> dominantKeys(List<HotSpotReport.VirtualShardTraffic> hottest) {
        List<HotSpotReport.HotKey> keys = new ArrayList<>();
        for (HotSpotReport.VirtualShardTraffic v : hottest) {
            KeySketch sketch = sketches.get(v.virtualShard());
            KeySketch.Top top = sketch == null ? null : sketch.top();
            if (top != null && top.samples() >= MIN_SAMPLES
                    && top.atLeast() >= DOMINANT_SHARE * top.samples()) {
                UnitKey key = (UnitKey) top.key();
                keys.add(new HotSpotReport.HotKey(key.unit(), key.key(), v.virtualShard(),
                        (double) top.atLeast() / top.samples()));
            }
        }
        return keys;
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] adders = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }
}
