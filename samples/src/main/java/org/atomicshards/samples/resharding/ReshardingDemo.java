package org.atomicshards.samples.resharding;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.KeyGeneration;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.ShardAdded;
import org.atomicshards.samples.model.Country;
import org.atomicshards.samples.model.Photo;
import org.atomicshards.samples.model.Status;
import org.atomicshards.samples.model.User;

/**
 * Seed 004's "arena before sales start", run: the sample starts on <b>one</b> shard that owns every virtual shard,
 * and while a workload runs ({@link Workload}) it adds three shards and splits online, s0 → s0 + s1, then s0 → s0 +
 * s2 and s1 → s1 + s3, so that four shards own a quarter of the virtual shards each. It prints the distribution
 * before and after, each move's progress, and the workload's throughput before, during and after; then reads every
 * shard and the catalog directly and checks ({@link PlacementCheck}) that every acknowledged write is there exactly
 * once, each unit whole on the shard the catalog's map names and on no other, and that fan-out counts equal the
 * totals.
 *
 * <p>Runs on fresh in-memory H2 databases of its own (shut down at the end).
 */
public final class ReshardingDemo {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final int SHARDS_AFTER = 4;

    /**
     * How big a run is.
     *
     * @param units users loaded before the workload starts (each with 1-3 statuses and 0-2 photos)
     * @param virtualShards virtual shards of the factory; a multiple of 4
     * @param writers writer threads of the workload
     * @param window how long the workload runs before the resharding starts and after it ended
     * @param virtualShardsPerBatch virtual shards switched together in a move
     */
    public record Settings(int units, int virtualShards, int writers, Duration window, int virtualShardsPerBatch) {

        public Settings {
            if (virtualShards % SHARDS_AFTER != 0 || virtualShards < SHARDS_AFTER) {
                throw new IllegalArgumentException("virtualShards is " + virtualShards + "; it must be a positive "
                        + "multiple of " + SHARDS_AFTER + " so that four shards can own the same number");
            }
            if (units < writers || writers < 1) {
                throw new IllegalArgumentException("units (" + units + ") must be at least writers (" + writers
                        + "), and writers at least 1");
            }
        }

        /** The main job's run: 2,000 users on 64 virtual shards, 3 writers, 1.5 s before and after. */
        public static Settings mainJob() {
            return new Settings(2000, 64, 3, Duration.ofMillis(1500), 8);
        }
    }

    /**
     * What a run found.
     *
     * @param virtualShardsPerShard the virtual shards each shard owns at the end
     * @param unitsPerShard the users each shard holds at the end, read directly from its database
     * @param acknowledgedUnits users acknowledged in the whole run
     * @param writesDuringResharding units of work acknowledged while the shards were added and split
     * @param problems what the checks found; empty when all held
     */
    public record Outcome(Map<String, Integer> virtualShardsPerShard, Map<String, Integer> unitsPerShard,
                          long acknowledgedUnits, long writesDuringResharding, List<String> problems) {
    }

    private ReshardingDemo() {
    }

    /**
     * Runs the demo and checks it.
     *
     * @throws IllegalStateException naming every problem found, if any acknowledged write is missing, duplicated or
     *         on the wrong shard, a read or fan-out count disagreed, or the shards do not end up four
     */
    public static Outcome run(Settings settings, PrintStream out) {
        Outcome outcome = runUnchecked(settings, out);
        requireNoProblems(outcome.problems());
        return outcome;
    }

    /** @throws IllegalStateException listing the first 20 problems, if there are any */
    static void requireNoProblems(List<String> problems) {
        if (!problems.isEmpty()) {
            throw new IllegalStateException("The resharding check failed with " + problems.size() + " problem(s):\n  "
                    + String.join("\n  ", problems.subList(0, Math.min(20, problems.size()))));
        }
    }

    /** Runs the demo; the problems are in the outcome. */
    static Outcome runUnchecked(Settings settings, PrintStream out) {
        return runUnchecked(settings, out, urls -> { });
    }

    /**
     * Runs the demo; {@code beforeCheck} gets the shards' JDBC URLs (by shard id) once the workload has stopped and
     * before the shards are read, so a test can break what they hold and see the check report it.
     */
    static Outcome runUnchecked(Settings settings, PrintStream out, Consumer<Map<String, String>> beforeCheck) {
        String prefix = "jdbc:h2:mem:atomicshards-resharding-" + RUNS.incrementAndGet() + "-";
        String catalogUrl = prefix + "catalog;DB_CLOSE_DELAY=-1";
        Map<String, String> urls = new LinkedHashMap<>();
        for (int i = 0; i < SHARDS_AFTER; i++) {
            urls.put("s" + i, prefix + "s" + i + ";DB_CLOSE_DELAY=-1");
        }
        RuntimeException failure = null;
        try {
            return demo(settings, new Report(out), catalogUrl, urls, beforeCheck);
        } catch (RuntimeException e) {
            failure = e;
            throw e;
        } finally {
            List<String> databases = new ArrayList<>(urls.values());
            databases.add(catalogUrl);
            for (String url : databases) {
                try {
                    DirectReads.shutDown(url);
                } catch (RuntimeException e) {
                    if (failure == null) {
                        throw e;
                    }
                    failure.addSuppressed(e);
                }
            }
        }
    }

    private static Outcome demo(Settings settings, Report report, String catalogUrl, Map<String, String> urls,
                                Consumer<Map<String, String>> beforeCheck) {
        report.line("");
        report.line("Resharding online (seed 004's arena before sales start): one shard owns all "
                + settings.virtualShards() + " virtual shards; when sales start it splits to four while the "
                + "application keeps writing.");
        try (ShardedSessionFactory shards = bootOnOneShard(settings, catalogUrl, urls.get("s0"))) {
            Ledger ledger = new Ledger();
            Workload workload = new Workload(shards, new UnitWrites(shards, ledger, countries(shards)), ledger,
                    settings.writers());
            long loading = System.nanoTime();
            workload.load(settings.units());
            report.line(String.format("Loaded %d users with their statuses and photos in %.1f s (%d writer threads).",
                    settings.units(), (System.nanoTime() - loading) / 1e9, settings.writers()));
            report.distribution("Before sales start:", observeShards(shards, urls), virtualShards(shards));

            List<Workload.Phase> phases;
            try {
                workload.start("before: 1 shard");
                pause(settings.window());
                workload.phase("during: adding and splitting");
                splitToFour(shards, report, urls, settings);
                workload.phase("after: 4 shards");
                pause(settings.window());
            } finally {
                phases = workload.stop();
            }
            report.throughput(phases);
            beforeCheck.accept(Map.copyOf(urls));

            List<ShardContents> contents = observeShards(shards, urls);
            Map<String, List<Integer>> owned = virtualShards(shards);
            report.distribution("After the split:", contents, owned);
            ObservedState observed = new ObservedState(contents, DirectReads.latestMap(catalogUrl),
                    instanceMap(shards), id -> shards.shardFor(User.class, id).orElseThrow().name(),
                    fanOutCounts(shards));
            List<String> problems = new ArrayList<>(workload.problems());
            problems.addAll(checkFourWay(owned, settings.virtualShards()));
            Map<Long, AcknowledgedUnit> acknowledged = ledger.snapshot();
            problems.addAll(PlacementCheck.check(acknowledged, observed));
            report.verdict(acknowledged, observed.fanOut(), problems);
            return outcome(owned, contents, acknowledged.size(), phases.get(1).writes(), problems);
        }
    }

    /** One shard, {@code s0}, owning every virtual shard: the catalog's first map when only one shard is configured. */
    private static ShardedSessionFactory bootOnOneShard(Settings settings, String catalogUrl, String s0Url) {
        ShardedSessionFactory shards = AtomicShards.configure()
                .annotatedClasses(User.class, Status.class, Photo.class, Country.class)
                .virtualShards(settings.virtualShards())
                .policy(User.class, Policies.hash().withKeyGeneration(KeyGeneration.SEQUENCE))
                .catalog(catalogUrl)
                .shard("s0", s0Url)
                .schemaAction("create")
                .build();
        shards.replicate(session -> {
            session.persist(new Country("FR", "France"));
            session.persist(new Country("JP", "Japan"));
            session.persist(new Country("BR", "Brazil"));
        });
        return shards;
    }

    private static List<Country> countries(ShardedSessionFactory shards) {
        return List.of(shards.find(Country.class, "FR"), shards.find(Country.class, "JP"),
                shards.find(Country.class, "BR"));
    }

    /** s0 → s0 + s1, then s0 → s0 + s2 and s1 → s1 + s3: four shards with a quarter of the virtual shards each. */
    private static void splitToFour(ShardedSessionFactory shards, Report report, Map<String, String> urls,
                                    Settings settings) {
        report.line("");
        report.line("Sales start: three shards are added and the virtual shards split, while the workload runs:");
        MoveOptions options = MoveOptions.defaults().virtualShardsPerBatch(settings.virtualShardsPerBatch());
        addShard(shards, report, "s1", urls);
        split(shards, report, "s0", "s1", options);
        addShard(shards, report, "s2", urls);
        addShard(shards, report, "s3", urls);
        split(shards, report, "s0", "s2", options);
        split(shards, report, "s1", "s3", options);
    }

    private static void addShard(ShardedSessionFactory shards, Report report, String id, Map<String, String> urls) {
        long started = System.nanoTime();
        ShardAdded added = shards.admin().addShard(id, urls.get(id), null, null);
        report.shardAdded(added, Duration.ofNanos(System.nanoTime() - started));
    }

    private static void split(ShardedSessionFactory shards, Report report, String source, String target,
                              MoveOptions options) {
        String label = "split " + source + " -> " + target;
        report.line("  " + label + ": the upper half of " + source + "'s virtual shards move to " + target);
        report.moved(label, shards.admin().split(ShardId.of(source), ShardId.of(target),
                options.listener(report.progress(label))));
    }

    private static List<String> checkFourWay(Map<String, List<Integer>> owned, int virtualShards) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < SHARDS_AFTER; i++) {
            int count = owned.getOrDefault("s" + i, List.of()).size();
            if (count != virtualShards / SHARDS_AFTER) {
                problems.add("split: s" + i + " owns " + count + " virtual shards, expected "
                        + virtualShards / SHARDS_AFTER);
            }
        }
        return problems;
    }

    private static Outcome outcome(Map<String, List<Integer>> owned, List<ShardContents> contents,
                                   long acknowledgedUnits, long writesDuring, List<String> problems) {
        Map<String, Integer> virtualShards = new TreeMap<>();
        owned.forEach((shard, list) -> virtualShards.put(shard, list.size()));
        Map<String, Integer> units = new TreeMap<>();
        contents.forEach(shard -> units.put(shard.shard(), shard.users().size()));
        return new Outcome(virtualShards, units, acknowledgedUnits, writesDuring, List.copyOf(problems));
    }

    private static List<ShardContents> observeShards(ShardedSessionFactory shards, Map<String, String> urls) {
        return shards.shards().stream().map(id -> DirectReads.shard(id.name(), urls.get(id.name()))).toList();
    }

    private static Map<String, List<Integer>> virtualShards(ShardedSessionFactory shards) {
        Map<String, List<Integer>> owned = new LinkedHashMap<>();
        shards.shards().forEach(id -> owned.put(id.name(), shards.directory().virtualShardsOf(id)));
        return owned;
    }

    private static Map<Integer, String> instanceMap(ShardedSessionFactory shards) {
        Map<Integer, String> map = new TreeMap<>();
        for (int v = 0; v < shards.directory().virtualShards(); v++) {
            map.put(v, shards.directory().shardOf(v).name());
        }
        return map;
    }

    private static ObservedState.FanOutCounts fanOutCounts(ShardedSessionFactory shards) {
        return new ObservedState.FanOutCounts(
                shards.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult(),
                shards.fanOut().createQuery("select count(s) from Status s", Long.class).getSingleResult(),
                shards.fanOut().createQuery("select count(p) from Photo p", Long.class).getSingleResult());
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }
}
