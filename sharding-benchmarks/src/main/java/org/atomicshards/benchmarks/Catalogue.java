package org.atomicshards.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.benchmarks.merge.MergeBenchmark;
import org.atomicshards.benchmarks.merge.MergeQuery;
import org.atomicshards.benchmarks.merge.MergeSide;
import org.atomicshards.benchmarks.move.MoveFigure;
import org.atomicshards.benchmarks.move.MoveProbe;
import org.atomicshards.benchmarks.report.Comparison;
import org.atomicshards.benchmarks.report.Target;
import org.atomicshards.benchmarks.scale.ScaleProbe;

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
    private static final String PG_FAN_OUT = "PostgresFanOutBenchmark.";
    private static final String PG_REPLICA = "ReplicaFanOutBenchmark.";
    private static final String SCALE = "ScaleFanOutBenchmark.";
    private static final String INDEX = "IndexLookupBenchmark.";
    private static final String INDEX_THROUGHPUT = "IndexThroughputBenchmark.";

    /** Named in the labels of the rows measured on PostgreSQL. */
    static final String POSTGRES = "PostgreSQL";

    /** Each step of the scale rows has 4x the shards: growing at most linearly is at most this factor. */
    static final double LINEAR_STEP = 4;

    private static final Map<String, String> SCALE_FIGURES = Map.of(
            ScaleProbe.BOOT_COLD, "boot, first in the JVM",
            ScaleProbe.BOOT_WARM, "boot, second in the JVM",
            ScaleProbe.FIRST_FAN_OUT, "first fan-out (starts every pool)",
            ScaleProbe.HEAP_TOUCHED, "heap after boot and one fan-out");

    /** The probe's counts, in table order: threads beyond the JVM's before the boot, and connections open. */
    private static final Map<String, String> COUNT_FIGURES = orderedMap(
            ScaleProbe.THREADS_BOOTED, "threads after boot",
            ScaleProbe.THREADS_FANNED_OUT, "threads right after the first fan-out",
            ScaleProbe.THREADS_IDLE, "threads after 20 s idle",
            ScaleProbe.CONNECTIONS_BOOTED, "open connections after boot",
            ScaleProbe.CONNECTIONS_FANNED_OUT, "open connections right after the first fan-out",
            ScaleProbe.CONNECTIONS_IDLE, "open connections after 20 s idle (idle timeout 10 s)");

    private Catalogue() {
    }

    static List<Comparison> comparisons() {
        List<Comparison> rows = new ArrayList<>();
        unitOfWorkRows(rows, "H2", "", "");
        unitOfWorkRows(rows, "H2", "@threads=8", ", 8 threads");
        rows.add(Comparison.against("fan-out LIMIT 20, 16 x 5 ms shards: Atomic Shards parallel",
                FAN_OUT + "atomicShardsParallel", "one 5 ms shard", FAN_OUT + "oneShard",
                Target.ratioAtMost(1.1))); // issue 12's target (issue 6 asked for 1.5x)
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
        scaleRows(rows);
        indexRows(rows);

        unitOfWorkRows(rows, "POSTGRESQL", "", " (" + POSTGRES + ")");
        unitOfWorkRows(rows, "POSTGRESQL", "@threads=8", ", 8 threads (" + POSTGRES + ")");
        String pg = PG_FAN_OUT;
        rows.add(Comparison.against("fan-out LIMIT 20, 16 shards (" + POSTGRES + "): Atomic Shards parallel",
                pg + "atomicShardsParallel", "one database", pg + "oneShard", Target.ratioAtMost(1.5)));
        rows.add(Comparison.against("fan-out LIMIT 20, 16 shards (" + POSTGRES + "): Atomic Shards parallel",
                pg + "atomicShardsParallel", "ShardingSphere, 16 shards", pg + "shardingSphere", Target.ahead()));
        rows.add(Comparison.context("fan-out LIMIT 20, 16 shards (" + POSTGRES + "): ShardingSphere",
                pg + "shardingSphere", "one database", pg + "oneShard"));
        replicaRows(rows);
        moveRows(rows);
        return List.copyOf(rows);
    }

    /**
     * Reads from replicas on PostgreSQL (a streaming standby on the same machine: what routing to a replica costs, not
     * the capacity a replica on its own hardware adds): a fan-out's page and count on one thread and eight, and a
     * read-only session's one query, whose difference is the lag check. For information: the issue sets no target.
     */
    private static void replicaRows(List<Comparison> rows) {
        for (String threads : List.of("", "@threads=8")) {
            String suffix = threads.isEmpty() ? "" : ", 8 threads";
            rows.add(Comparison.context("replicas: fan-out page + count, 2 shards" + suffix + " (" + POSTGRES
                    + "): from the replicas", PG_REPLICA + "fanOutReplicas" + threads, "from the primaries",
                    PG_REPLICA + "fanOutPrimaries" + threads));
        }
        rows.add(Comparison.context("replicas: read-only session and one query (" + POSTGRES + "): on the replica, "
                + "after its lag check", PG_REPLICA + "sessionReadReplica", "on the primary",
                PG_REPLICA + "sessionReadPrimary"));
    }

    /** The three unit-of-work rows of one backend and thread count. */
    private static void unitOfWorkRows(List<Comparison> rows, String backend, String threads, String suffix) {
        String params = "[backend=" + backend + "]" + threads;
        String atomicShards = UOW + "atomicShards" + params;
        String plain = UOW + "plainHibernate" + params;
        String shardingSphere = UOW + "shardingSphere" + params;
        boolean h2 = backend.equals("H2");
        rows.add(Comparison.against("unit of work" + suffix + ": Atomic Shards, 4 shards", atomicShards,
                "plain Hibernate, 1 database", plain, Target.ratioAtLeast(0.95)));
        rows.add(Comparison.against("unit of work" + suffix + ": Atomic Shards, 4 shards", atomicShards,
                "ShardingSphere, 4 shards", shardingSphere, Target.ratioAtLeast(h2 ? 3 : 1)));
        rows.add(Comparison.context("unit of work" + suffix + ": ShardingSphere, 4 shards", shardingSphere,
                "plain Hibernate, 1 database", plain));
        String withMetrics = UOW + "atomicShardsWithMetrics" + params;
        rows.add(Comparison.against("unit of work" + suffix + ": Atomic Shards with metrics, 4 shards", withMetrics,
                "plain Hibernate, 1 database", plain, Target.ratioAtLeast(0.95)));
        rows.add(Comparison.context("unit of work" + suffix + ": Atomic Shards with metrics, 4 shards", withMetrics,
                "Atomic Shards without metrics", atomicShards));
    }

    /**
     * Each scale figure at 16, 64 and 256 shards against the previous shard count (4x fewer shards): growing at
     * most linearly in the shard count means at most 4x; the heap per idle shard added is for information.
     */
    private static void scaleRows(List<Comparison> rows) {
        List<Integer> counts = List.of(4, 16, 64, 256);
        for (int i = 1; i < counts.size(); i++) {
            int fewer = counts.get(i - 1);
            int more = counts.get(i);
            for (String query : List.of("countAll", "firstTwenty")) {
                String label = query.equals("countAll") ? "count(*)" : "ORDER BY LIMIT 20";
                rows.add(Comparison.against("scale: fan-out " + label + ", " + more + " shards",
                        SCALE + query + "[shards=" + more + "]", fewer + " shards",
                        SCALE + query + "[shards=" + fewer + "]", Target.ratioAtMost(LINEAR_STEP)));
            }
            rows.add(Comparison.context("scale: the databases alone, count(*) on each in turn over JDBC, " + more
                    + " shards", SCALE + "jdbcCountEach[shards=" + more + "]", fewer + " shards",
                    SCALE + "jdbcCountEach[shards=" + fewer + "]"));
            for (String figure : List.of(ScaleProbe.BOOT_COLD, ScaleProbe.BOOT_WARM, ScaleProbe.FIRST_FAN_OUT,
                    ScaleProbe.HEAP_TOUCHED)) {
                rows.add(Comparison.against("scale: " + SCALE_FIGURES.get(figure) + ", " + more + " shards",
                        scaleKey(figure, more), fewer + " shards", scaleKey(figure, fewer),
                        Target.ratioAtMost(LINEAR_STEP)));
            }
        }
        for (int i = 1; i < counts.size(); i++) {
            rows.add(Comparison.standalone("scale: heap per idle shard (pool started), " + counts.get(i - 1) + " to "
                    + counts.get(i) + " shards", heapPerShardKey(ScaleProbe.HEAP_TOUCHED, counts.get(i))));
        }
        for (int shards : counts) {
            COUNT_FIGURES.forEach((figure, label) -> rows.add(Comparison.standalone(
                    "scale: " + label + ", " + shards + " shards", scaleKey(figure, shards))));
        }
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }

    static String scaleKey(String figure, int shards) {
        return "ScaleProbe." + figure + "[shards=" + shards + "]";
    }

    /** The heap per shard added between the previous shard count and {@code shards}. */
    static String heapPerShardKey(String figure, int shards) {
        return "ScaleProbe." + figure + "PerAddedShard[shards=" + shards + "]";
    }

    /**
     * The online move between two PostgreSQL shards ({@link MoveProbe}, group {@code pg-move}): move throughput idle
     * and under the writers' load, the application's throughput during a move against before it, and the write pause
     * per batch as the mover reports it and as the writers on the frozen batch see it.
     */
    private static void moveRows(List<Comparison> rows) {
        String move = "online move, half of " + MoveProbe.UNITS / 1000 + "k units (" + POSTGRES + ")";
        String loaded = ", " + MoveProbe.THREADS + " writer threads";
        rows.add(Comparison.standalone(move + ", idle: units moved", MoveFigure.IDLE_UNITS_PER_SECOND.key()));
        rows.add(Comparison.standalone(move + ", idle: rows moved", MoveFigure.IDLE_ROWS_PER_SECOND.key()));
        rows.add(Comparison.context(move + loaded + ": units moved", MoveFigure.LOADED_UNITS_PER_SECOND.key(),
                "idle", MoveFigure.IDLE_UNITS_PER_SECOND.key()));
        rows.add(Comparison.context(move + loaded + ": rows moved", MoveFigure.LOADED_ROWS_PER_SECOND.key(),
                "idle", MoveFigure.IDLE_ROWS_PER_SECOND.key()));
        rows.add(Comparison.context(move + loaded + ": application during the move",
                MoveFigure.APPLICATION_DURING.key(), "before the move", MoveFigure.APPLICATION_BEFORE.key()));
        rows.add(Comparison.standalone(move + loaded + ": write pause per batch (mover), p50",
                MoveFigure.FROZEN_P50.key()));
        rows.add(Comparison.standalone(move + loaded + ": write pause per batch (mover), p99",
                MoveFigure.FROZEN_P99.key()));
        rows.add(Comparison.context(move + loaded + ": unit of work on a frozen batch, p50",
                MoveFigure.WRITER_FROZEN_P50.key(), "before the move, p50", MoveFigure.WRITER_BEFORE_P50.key()));
        rows.add(Comparison.context(move + loaded + ": unit of work on a frozen batch, p99",
                MoveFigure.WRITER_FROZEN_P99.key(), "before the move, p99", MoveFigure.WRITER_BEFORE_P99.key()));
    }

    /**
     * The suite's groups in the results file's order: the JMH groups, then the probes'. Every row of the table is
     * measured by exactly one of them ({@link #groupOf}).
     */
    static List<String> groups() {
        List<String> groups = new ArrayList<>(SuiteGroup.all(1).stream().map(SuiteGroup::name).toList());
        groups.addAll(List.of(HeapProbes.GROUP, ScaleProbes.GROUP, MoveProbes.GROUP));
        return List.copyOf(groups);
    }

    /** The comparisons {@code group} measures, in table order; empty for a group of no row. */
    static List<Comparison> comparisonsOf(String group) {
        return comparisons().stream().filter(row -> groupOf(row.subjectKey()).equals(group)).toList();
    }

    /**
     * The group that measures the figure {@code key}.
     *
     * @throws IllegalArgumentException for a key no group measures
     */
    static String groupOf(String key) {
        if (key.startsWith(UOW)) {
            return (key.contains("backend=POSTGRESQL") ? "pg-" : "") + "unit-of-work"
                    + (key.contains("@threads=8") ? "-8-threads" : "");
        }
        if (key.startsWith(MERGE)) {
            return key.startsWith(MERGE + "firstHundred") ? "merge-limit" : "merge-stream";
        }
        if (key.startsWith(INDEX)) {
            return "index";
        }
        if (key.startsWith(INDEX_THROUGHPUT)) {
            return "index-8-threads";
        }
        if (key.startsWith(PG_REPLICA)) {
            return "pg-replica" + (key.contains("@threads=8") ? "-8-threads" : "");
        }
        Map<String, String> byPrefix = orderedMap(FAN_OUT, "fan-out", PG_FAN_OUT, "pg-fan-out",
                "RoutingThroughputBenchmark.", "routing", SCALE, "scale", "RetainedHeap.", HeapProbes.GROUP,
                "ScaleProbe.", ScaleProbes.GROUP, MoveFigure.KEY_PREFIX, MoveProbes.GROUP);
        return byPrefix.entrySet().stream().filter(prefix -> key.startsWith(prefix.getKey())).map(Map.Entry::getValue)
                .findFirst().orElseThrow(() -> new IllegalArgumentException("No suite group measures " + key));
    }

    /**
     * At 4, 16 and 64 shards, one thread and eight: a look-up through a unique index, and the same query pruned by the
     * index, against the query on a copy of the attribute without index (every shard); a unit of work changing the
     * indexed attribute against one changing the copy. For information: the issue sets no target.
     */
    private static void indexRows(List<Comparison> rows) {
        for (String threads : List.of("", "@threads=8")) {
            String suffix = threads.isEmpty() ? "" : ", 8 threads";
            String benchmark = threads.isEmpty() ? INDEX : INDEX_THROUGHPUT;
            for (int shards : List.of(4, 16, 64)) {
                String params = "[shards=" + shards + "]" + threads;
                String everyShard = benchmark + "queryOnEveryShard" + params;
                String without = "the query without index (every shard)";
                rows.add(Comparison.context("index" + suffix + ": look-up by a unique index, " + shards + " shards",
                        benchmark + "indexLookup" + params, without, everyShard));
                rows.add(Comparison.context("index" + suffix + ": = on the indexed attribute (pruned), " + shards
                        + " shards", benchmark + "queryPrunedByIndex" + params, without, everyShard));
                rows.add(Comparison.context("index" + suffix + ": unit of work changing the indexed attribute, "
                        + shards + " shards", benchmark + "writeIndexedAttribute" + params, "changing it without index",
                        benchmark + "writeUnindexedAttribute" + params));
            }
        }
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
