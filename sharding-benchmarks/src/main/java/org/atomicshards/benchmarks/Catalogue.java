package org.atomicshards.benchmarks;

import java.util.ArrayList;
import java.util.List;

import org.atomicshards.benchmarks.merge.MergeBenchmark;
import org.atomicshards.benchmarks.merge.MergeQuery;
import org.atomicshards.benchmarks.merge.MergeSide;
import org.atomicshards.benchmarks.report.Comparison;
import org.atomicshards.benchmarks.report.Target;

/**
 * The rows of the result table: every comparison issue 6 sets a target for, plus context rows (the peer against
 * the plain baseline) that explain the targets. Keys name JMH benchmarks as {@code Class.method[param=value]},
 * with {@code :alloc} for JMH's {@code gc.alloc.rate.norm} and {@code :allocPerRow} for that divided by the rows
 * streamed, and heap probes as {@code RetainedHeap.side.query[rowsPerShard=n]}.
 */
final class Catalogue {

    /** Allocation per operation (or per row) may differ by this factor between the two row counts. */
    static final double ALLOCATION_NOISE = 1.25;

    /** Retained heap may grow by this much from 8 x 20,000 to 8 x 200,000 rows (a copy of the rows would be >100 MiB). */
    static final double RETAINED_GROWTH_BYTES = 1024 * 1024;

    private static final String UOW = "UnitOfWorkBenchmark.";
    private static final String FAN_OUT = "FanOutLatencyBenchmark.";
    private static final String MERGE = "MergeBenchmark.";

    private Catalogue() {
    }

    static List<Comparison> comparisons() {
        List<Comparison> rows = new ArrayList<>();
        rows.add(Comparison.against("unit of work: Atomic Shards, 4 shards", UOW + "atomicShards",
                "plain Hibernate, 1 database", UOW + "plainHibernate", Target.ratioAtLeast(0.95)));
        rows.add(Comparison.against("unit of work: Atomic Shards, 4 shards", UOW + "atomicShards",
                "ShardingSphere, 4 shards", UOW + "shardingSphere", Target.ratioAtLeast(3)));
        rows.add(Comparison.context("unit of work: ShardingSphere, 4 shards", UOW + "shardingSphere",
                "plain Hibernate, 1 database", UOW + "plainHibernate"));

        rows.add(Comparison.against("fan-out LIMIT 20, 16 x 5 ms shards: Atomic Shards parallel",
                FAN_OUT + "atomicShardsParallel", "one 5 ms shard", FAN_OUT + "oneShard", Target.ratioAtMost(1.5)));
        rows.add(Comparison.against("fan-out LIMIT 20, 16 x 5 ms shards: Atomic Shards parallel",
                FAN_OUT + "atomicShardsParallel", "ShardingSphere, 16 x 5 ms shards", FAN_OUT + "shardingSphere",
                Target.ahead()));
        rows.add(Comparison.context("fan-out LIMIT 20, 16 x 5 ms shards: Atomic Shards sequential",
                FAN_OUT + "atomicShardsSequential", "one 5 ms shard", FAN_OUT + "oneShard"));
        rows.add(Comparison.context("fan-out LIMIT 20, 16 x 5 ms shards: ShardingSphere",
                FAN_OUT + "shardingSphere", "one 5 ms shard", FAN_OUT + "oneShard"));

        String large = rows(MergeBenchmark.MORE_ROWS);
        String small = rows(MergeBenchmark.FEWER_ROWS);
        rows.add(Comparison.against("merge LIMIT 100, 8 x 200k rows: Atomic Shards",
                MERGE + "firstHundredAtomicShards" + large, "ShardingSphere",
                MERGE + "firstHundredShardingSphere" + large, Target.ahead()));
        rows.add(Comparison.against("merge streamed, 8 x 200k rows: Atomic Shards",
                MERGE + "streamAtomicShards" + large, "ShardingSphere",
                MERGE + "streamShardingSphere" + large, Target.ahead()));

        for (String side : List.of("AtomicShards", "ShardingSphere")) {
            boolean ours = side.equals("AtomicShards");
            String name = ours ? "Atomic Shards" : "ShardingSphere";
            rows.add(memoryRow("merge LIMIT 100 allocation: " + name + ", 8 x 200k rows",
                    MERGE + "firstHundred" + side + large + ":alloc", MERGE + "firstHundred" + side + small + ":alloc",
                    ours ? Target.ratioAtMost(ALLOCATION_NOISE) : null));
            rows.add(memoryRow("merge streamed allocation per row: " + name + ", 8 x 200k rows",
                    MERGE + "stream" + side + large + ":allocPerRow", MERGE + "stream" + side + small + ":allocPerRow",
                    ours ? Target.ratioAtMost(ALLOCATION_NOISE) : null));
            String probeName = (ours ? MergeSide.ATOMIC_SHARDS : MergeSide.SHARDING_SPHERE).cliName();
            for (MergeQuery query : MergeQuery.values()) {
                rows.add(memoryRow("merge " + (query == MergeQuery.STREAM ? "streamed (half way)" : "LIMIT 100")
                                + " retained heap: " + name + ", 8 x 200k rows",
                        retainedKey(probeName, query, MergeBenchmark.MORE_ROWS),
                        retainedKey(probeName, query, MergeBenchmark.FEWER_ROWS),
                        ours ? Target.growthAtMost(RETAINED_GROWTH_BYTES) : null));
            }
        }
        for (String policy : List.of("HASH", "RANGE", "CONSISTENT_HASH", "LOOKUP")) {
            rows.add(Comparison.standalone("routing throughput (key to shard): " + policy,
                    "RoutingThroughputBenchmark.route[policy=" + policy + "]"));
        }
        return List.copyOf(rows);
    }

    private static Comparison memoryRow(String label, String subjectKey, String baselineKey, Target target) {
        return new Comparison(label, subjectKey, "same, 8 x 20k rows", baselineKey, target);
    }

    static String rows(String rowsPerShard) {
        return "[rowsPerShard=" + rowsPerShard + "]";
    }

    static String retainedKey(String side, MergeQuery query, String rowsPerShard) {
        return "RetainedHeap." + side + "." + query.cliName() + rows(rowsPerShard);
    }
}
