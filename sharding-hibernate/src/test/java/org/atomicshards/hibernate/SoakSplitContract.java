package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import org.atomicshards.hibernate.SoakStats.Op;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.atomicshards.hibernate.model.Photo;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The soak test of issue 10, with the same contract on every database: 2 shards are split into 4 (two shards added at
 * run time, each then taking the upper half of one old shard's virtual shards, both splits at once) while 4 threads
 * mix units of work, reads by id and fan-outs ({@link SoakWriter}) for the whole operation, two of them through a
 * second instance on the same catalog that learns of the new shards and maps from the catalog every 5 s, or sooner
 * when a shard's fence or a fan-out's ownership check turns it away. Afterwards every
 * acknowledged write is present exactly once and every unit lies wholly on the shard the map names
 * ({@link SoakStateCheck}); during the move every fan-out over the stable units equalled the same query on the
 * unsharded oracle ({@link SoakOracle}) and every fan-out count over the churn units lay within the writers' bounds.
 *
 * <p>The thread interleaving differs from run to run; the query shapes, pages and operations come from a seeded
 * {@code Random}: the seed is printed and can be fixed with {@code -Datomicshards.soak.seed=...}.
 */
abstract class SoakSplitContract {

    private static final int VIRTUAL_SHARDS = 16;
    private static final int STABLE_UNITS = 400;
    private static final int WRITERS = 4;
    private static final long WRITE_PAUSE_MILLIS = 200;
    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");

    protected abstract DatabaseKind kind();

    /** The {@code create database} options of the shards and the oracle (none: the server's defaults). */
    protected String createOptions() {
        return "";
    }

    private final long seed = Long.getLong("atomicshards.soak.seed", new SecureRandom().nextLong());
    private ShardDatabases dbs;
    private SoakOracle oracle;
    private String catalog;
    private ShardedSessionFactory shards;

    @BeforeEach
    void boot() {
        dbs = ShardDatabases.create(kind(), 4, createOptions());
        oracle = new SoakOracle(kind(), createOptions(), VIRTUAL_SHARDS);
        // a write pause shorter than a batch's, so that writers also meet ShardMovingException and run the unit again
        catalog = dbs.newCatalogUrl();
        shards = Fixtures.builderWithFirst(dbs, VIRTUAL_SHARDS, 2, catalog)
                .property(ShardingSettings.RESHARDING_WRITE_PAUSE, WRITE_PAUSE_MILLIS).build();
    }

    @AfterEach
    void shutDown() {
        try {
            shards.close();
            oracle.close();
        } finally {
            dbs.close();
        }
    }

    @Test
    void splittingTwoShardsIntoFourUnderMixedLoadLosesNothingAndAnswersAsTheOracle() throws Exception {
        Map<Long, SoakUnit> stable = seedStableUnits(STABLE_UNITS);
        assertThat(differencesFromTheOracle(SoakQuery.all(1, STABLE_UNITS))).as("before the move").isEmpty();
        SoakLedger ledger = new SoakLedger();
        SoakStats stats = new SoakStats();
        // half the writers work through a second instance on the same catalog, which learns of the new shards and
        // maps from the catalog (refreshed every 5 s) or when a shard's fence turns it away; like every running
        // instance it needs a Snowflake worker of its own, or the two hand out the same photo ids
        Split split;
        try (ShardedSessionFactory secondInstance = Fixtures.builderWithFirst(dbs, VIRTUAL_SHARDS, 2, catalog)
                .schemaAction("none").property(ShardingSettings.RESHARDING_WRITE_PAUSE, WRITE_PAUSE_MILLIS)
                .property(ShardingSettings.SNOWFLAKE_WORKER, 1).build()) {
            split = splitUnderLoad(stable, ledger, stats, secondInstance);
            assertThat(secondInstance.shards()).as("the second instance took the new shards over").hasSize(4);
        }
        String run = kind() + " seed " + seed + ": " + stats;
        assertThat(stats.failures).as(run).isEmpty();
        assertThat(stats.wrongAnswers).as(run).isEmpty();
        // the move overlapped real work of every kind
        assertThat(overlappedEnough(stats)).as(run).isTrue();
        assertThat(split.reports()).allSatisfy(report -> assertThat(report.units()).isPositive());

        ((CachedShardDirectory) shards.directory()).refresh();
        for (int i = 0; i < 4; i++) {
            assertThat(shards.directory().virtualShardsOf(ShardId.of("s" + i))).as("s" + i).hasSize(VIRTUAL_SHARDS / 4);
        }
        Map<Long, SoakUnit> expected = new TreeMap<>(stable);
        expected.putAll(ledger.churn);
        assertThat(shards.shards()).hasSize(4);
        Map<String, List<SoakTable.Row>> rows = SoakStateCheck.read(dbs, dbs.shards());
        assertThat(endCheck(expected).problems(rows)).as(run).isEmpty();
        Map<String, Long> unitsPerShard = new TreeMap<>();
        rows.forEach((shard, ofShard) -> unitsPerShard.put(shard,
                ofShard.stream().filter(row -> row.table() == SoakTable.USER).count()));
        assertThat(unitsPerShard).allSatisfy((shard, units) -> assertThat(units).as(shard).isGreaterThan(20));
        long churnUnits = ledger.churn.values().stream().filter(u -> u.presence == SoakUnit.Presence.REQUIRED).count();
        assertThat(churnUnits).isGreaterThan(20);
        assertThat(differencesFromTheOracle(SoakQuery.all(1, STABLE_UNITS))).as("after the move").isEmpty();
        assertThat(shards.admin().operations()).isEmpty();
        System.out.println("SOAK " + kind() + " | seed " + seed + ", split 2 -> 4 shards in "
                + split.duration().toMillis() + " ms (" + split.reports().stream()
                .map(r -> r.units() + " units, longest write pause " + r.longestWritePause().toMillis() + " ms")
                .toList() + "); " + churnUnits + " churn units, units per shard " + unitsPerShard + "; " + stats);
    }

    /**
     * The checks can fail: a lost member, a row on two shards, a changed email and a row nobody wrote are each
     * reported by the end check, and the changed rows make fan-outs differ from the oracle.
     */
    @Test
    void theChecksReportLostDuplicatedChangedAndStrayRows() throws SQLException {
        Map<Long, SoakUnit> stable = seedStableUnits(40);
        SoakLedger ledger = new SoakLedger();
        SoakStats stats = new SoakStats();
        SoakWriter writer = new SoakWriter(0, seed, shards, oracle, stable, ledger, stats);
        for (int i = 0; i < 5; i++) {
            writer.perform(Op.NEW_UNIT);
        }
        Map<Long, SoakUnit> expected = new TreeMap<>(stable);
        expected.putAll(ledger.churn);
        assertThat(stats.failures).isEmpty();
        assertThat(endCheck(expected).problems(SoakStateCheck.read(dbs, inTopology()))).isEmpty();
        assertThat(differencesFromTheOracle(SoakQuery.all(1, 40))).isEmpty();

        SoakUnit churn = ledger.churn.values().iterator().next();
        String lost = churn.members.keySet().iterator().next();
        Map<String, SoakTable.Row> byIdentity = new HashMap<>();
        SoakStateCheck.read(dbs, inTopology()).values()
                .forEach(rows -> rows.forEach(row -> byIdentity.put(row.identity(), row)));
        SoakTable.Row lostRow = byIdentity.get(lost);
        SoakUnit withPhoto = stable.values().stream().filter(unit -> unit.memberCount(SoakTable.PHOTO) > 0)
                .findFirst().orElseThrow();
        SoakTable.Row photo = byIdentity.get(withPhoto.members.keySet().stream()
                .filter(member -> member.startsWith("PHOTO:")).findFirst().orElseThrow());
        String elsewhere = owner(withPhoto.key).equals("s0") ? "s1" : "s0";
        long changed = withPhoto.key == 1 ? 2 : 1;
        try (Connection owner = dbs.connect(owner(churn.key))) {
            assertThat(lostRow.table().delete(owner, lostRow)).isOne();
            SoakTable.PHOTO.insert(owner, List.of(new SoakTable.Row(SoakTable.PHOTO, 42L, "42", churn.key, "stray")));
        }
        try (Connection other = dbs.connect(elsewhere)) {
            SoakTable.PHOTO.insert(other, List.of(photo));
        }
        try (Connection owner = dbs.connect(owner(changed))) {
            assertThat(SoakTable.USER.update(owner, byIdentity.get("USER:" + changed), "tampered")).isOne();
        }

        List<String> problems = endCheck(expected).problems(SoakStateCheck.read(dbs, inTopology()));
        assertThat(problems).anySatisfy(p -> assertThat(p).isEqualTo("member " + lost + " of unit " + churn.key
                + " was acknowledged but is on no shard"));
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith("row " + photo.identity() + " is on 2 shards"));
        assertThat(problems).anySatisfy(p -> assertThat(p).isEqualTo("unit " + withPhoto.key + " has rows on "
                + "[s0, s1], but the map names " + owner(withPhoto.key)));
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith("unit " + changed + " has email 'tampered'"));
        assertThat(problems).anySatisfy(p -> assertThat(p).isEqualTo("member PHOTO:42 of unit " + churn.key
                + " is on a shard but was never written"));
        assertThat(problems).hasSize(5);
        List<String> differences = differencesFromTheOracle(SoakQuery.all(1, 40));
        assertThat(differences).anySatisfy(d -> assertThat(d).startsWith(SoakQuery.SHAPES.get(2)));
        assertThat(differences).anySatisfy(d -> assertThat(d).startsWith(SoakQuery.SHAPES.get(3)));
    }

    /** Whether the moves overlapped real work of every kind: oracle queries, bounded counts, finds and writes. */
    private static boolean overlappedEnough(SoakStats stats) {
        return stats.doneWhileMoving(Op.ORACLE_QUERY) >= 10 && stats.doneWhileMoving(Op.BOUNDED_COUNT) >= 3
                && stats.doneWhileMoving(Op.FIND) >= 3
                && stats.doneWhileMoving(Op.UPDATE) + stats.doneWhileMoving(Op.NEW_UNIT)
                        + stats.doneWhileMoving(Op.INSERT_MEMBER) + stats.doneWhileMoving(Op.DELETE_MEMBER) >= 20;
    }

    /** The moves' reports and how long both splits took together. */
    private record Split(List<MoveReport> reports, Duration duration) {
    }

    /**
     * Runs the writers (half on {@code secondInstance}) for a second, both splits at once while they keep running, and
     * a second more; stops and joins them.
     */
    private Split splitUnderLoad(Map<Long, SoakUnit> stable, SoakLedger ledger, SoakStats stats,
            ShardedSessionFactory secondInstance) throws Exception {
        List<Thread> writers = new ArrayList<>();
        for (int i = 0; i < WRITERS; i++) {
            ShardedSessionFactory factory = i % 2 == 0 ? shards : secondInstance;
            SoakWriter writer = new SoakWriter(i, seed, factory, oracle, stable, ledger, stats);
            writers.add(new Thread(writer, "soak-writer-" + i));
        }
        writers.forEach(Thread::start);
        List<MoveReport> reports = new ArrayList<>();
        Duration duration;
        ExecutorService admins = Executors.newFixedThreadPool(2);
        // mid-copy, each split waits (at most 10 s) until the work checked below overlapped the moves, however fast
        // the machine copies: a CI run once finished both splits with only 2 bounded counts begun meanwhile
        MoveFaults.install(step -> {
            if (step.equals("mid-copy")) {
                long until = System.nanoTime() + 10_000_000_000L;
                while (!overlappedEnough(stats) && System.nanoTime() < until) {
                    java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
                }
            }
        });
        try {
            Thread.sleep(1_000);
            stats.moving.set(true);
            long started = System.nanoTime();
            List<Future<MoveReport>> splits = List.of(admins.submit(() -> addAndSplit(S0, dbs.shards().get(2))),
                    admins.submit(() -> addAndSplit(S1, dbs.shards().get(3))));
            for (Future<MoveReport> split : splits) {
                reports.add(split.get(180, TimeUnit.SECONDS));
            }
            duration = Duration.ofNanos(System.nanoTime() - started);
            stats.moving.set(false);
            Thread.sleep(1_000);
        } finally {
            MoveFaults.install(null);
            stats.stop.set(true);
            admins.shutdownNow();
            for (Thread writer : writers) {
                writer.join(60_000);
            }
        }
        assertThat(writers).noneMatch(Thread::isAlive);
        return new Split(reports, duration);
    }

    private MoveReport addAndSplit(ShardId source, ShardDatabase target) {
        shards.admin().addShard(target.id(), target.url(), target.user(), target.password());
        return shards.admin().split(source, ShardId.of(target.id()), MoveOptions.defaults().virtualShardsPerBatch(1)
                .unitsPerChunk(10));
    }

    /**
     * Writes {@code count} stable units (keys 1..count; unit k has k mod 4 statuses and k mod 3 photos) through the
     * library, copies them into the oracle and returns them as the oracle holds them.
     */
    private Map<Long, SoakUnit> seedStableUnits(int count) {
        for (long key = 1; key <= count; key++) {
            long k = key;
            shards.inUnit(User.class, k, session -> {
                User user = new User(k, "s" + k);
                session.persist(user);
                for (int j = 0; j < k % 4; j++) {
                    session.persist(new Status(user, "t" + k + "-" + j));
                }
                for (int j = 0; j < k % 3; j++) {
                    session.persist(new Photo(k, "b" + k + "-" + j));
                }
            });
        }
        oracle.load(dbs, inTopology(), 1, SoakLedger.CHURN_BASE - 1);
        Map<Long, SoakUnit> stable = oracle.units();
        assertThat(stable).hasSize(count);
        assertThat(stable.values().stream().mapToLong(unit -> unit.members.size()).sum())
                .isEqualTo(LongStream.rangeClosed(1, count).map(k -> k % 4 + k % 3).sum());
        return stable;
    }

    /** The shard databases in the factory's topology. */
    private List<ShardDatabase> inTopology() {
        return dbs.shards().stream().filter(shard -> shards.shards().contains(ShardId.of(shard.id()))).toList();
    }

    private List<String> differencesFromTheOracle(List<SoakQuery> queries) {
        List<String> differences = new ArrayList<>();
        for (SoakQuery query : queries) {
            List<Object> expected = oracle.answer(query);
            assertThat(expected).as(query.toString()).isNotEmpty();
            List<Object> actual = query.onShards(shards);
            if (!actual.equals(expected)) {
                differences.add(query + " returned " + actual + ", the oracle " + expected);
            }
        }
        return differences;
    }

    private SoakStateCheck endCheck(Map<Long, SoakUnit> expected) {
        ((CachedShardDirectory) shards.directory()).refresh();
        return new SoakStateCheck(expected, this::owner);
    }

    private String owner(long key) {
        return shards.shardFor(User.class, key).orElseThrow().name();
    }
}
