package org.atomicshards.hibernate.legacy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.atomicshards.hibernate.FlywayPlanWriter;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardingPlan;
import org.atomicshards.hibernate.admin.AdoptionReport;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole way of an application not written for sharding to four shards, with one ledger of acknowledged writes
 * across it: the one database with rows and the old application writing (plain JDBC, IDENTITY ids); the plan written
 * as Flyway files and applied by Flyway while that writer writes; the restart (the old writer stopped, the last file
 * applied); adoption; a writer through the library while three shards are added and the data split to four. Then,
 * over plain JDBC: every row, old and new, once and on the shard the map names, every acknowledged write of both
 * writers present, no id twice in a table, the reference data on every shard.
 */
abstract class LegacyToFourShardsContract {

    private static final int BATCH = 25;

    /** One acknowledged write: a customer with one order of one line, and the phase it was made in. */
    record Ack(String phase, long customer, long order, long line) {
    }

    private final AdoptionContract support = new AdoptionContract() {
        @Override
        protected DatabaseKind kind() {
            return LegacyToFourShardsContract.this.kind();
        }
    };

    @TempDir
    Path dir;

    protected abstract DatabaseKind kind();

    @AfterEach
    void closeAll() {
        support.closeAll();
    }

    @Test
    void legacyDatabaseToFourShardsWithTwoWritersLosesAndDuplicatesNothing() throws Exception {
        ShardDatabases dbs = support.databases(4);
        LegacyDatabase legacy = new LegacyDatabase(dbs, "s0");
        legacy.createSchema();
        legacy.seed(40);
        Map<String, Set<Long>> seeded = AdoptionContract.ids(dbs, "s0");
        ShardedSessionFactory shards = support.boot(dbs, 1, Map.of());
        ConcurrentLinkedQueue<Ack> ledger = new ConcurrentLinkedQueue<>();

        // The plan, written as Flyway files after the application's own migrations.
        Files.writeString(dir.resolve("V3__the_applications_last_migration.sql"), "-- applied before the plan\n");
        ShardingPlan plan = shards.schema().shardingPlan(AdoptionContract.S0, BATCH);
        FlywayPlanWriter.write(plan, dir);
        assertThat(Files.exists(dir.resolve("V8__drop_database_generated_ids.sql"))).isTrue();

        // Flyway applies it while the old application writes.
        ShardDatabase s0 = dbs.shards().get(0);
        AtomicBoolean writesKey = new AtomicBoolean();
        AtomicBoolean paused = new AtomicBoolean();
        AtomicBoolean stopOld = new AtomicBoolean();
        ExecutorService oldApp = Executors.newSingleThreadExecutor();
        Future<?> oldWriter = oldApp.submit(() -> writeAsTheOldApplication(s0, writesKey, paused, stopOld, ledger));
        long during = 0;
        try {
            during += migrateWhileWriting(s0, "4", paused, ledger, oldWriter);
            writesKey.set(true); // the application version that writes the key is deployed
            for (String version : List.of("5", "6", "7")) {
                during += migrateWhileWriting(s0, version, paused, ledger, oldWriter);
            }
        } finally {
            stopOld.set(true);
            oldApp.shutdown();
        }
        oldWriter.get(60, TimeUnit.SECONDS); // rethrows a failed write
        assertThat(oldApp.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        if (kind() != DatabaseKind.H2) {
            assertThat(during).as("old application writes while Flyway applied the plan").isPositive();
        }
        assertThat(phase(ledger, "old")).as("acknowledged writes of the old application").isPositive();

        // The restart: the old application is stopped, the last file applied, the database adopted.
        ShardingPlanContract.migrate(s0, dir, "8");
        assertThat(ShardingGapsContract.gaps(shards)).isEmpty();
        AdoptionReport adopted = shards.admin().adopt(AdoptionContract.S0, false);
        assertThat(adopted.applied()).isTrue();

        // The application through the library: after adoption, then while three shards are added and split to four.
        for (int i = 0; i < 5; i++) {
            ledger.add(ack("adopted", AdoptionContract.writeCustomerWithOrder(shards, "after adoption " + i)));
        }
        AtomicBoolean stopNew = new AtomicBoolean();
        ExecutorService newApp = Executors.newSingleThreadExecutor();
        Future<?> newWriter = newApp.submit(() -> {
            int n = 0;
            while (!stopNew.get()) {
                ledger.add(ack("split", AdoptionContract.writeCustomerWithOrder(shards, "during split " + n++)));
            }
            return null;
        });
        try {
            for (String id : List.of("s1", "s2", "s3")) {
                ShardDatabase db = dbs.shards().get(Integer.parseInt(id.substring(1)));
                shards.admin().addShard(id, db.url(), db.user(), db.password());
            }
            shards.admin().split(AdoptionContract.S0, ShardId.of("s1"), MoveOptions.defaults());
            shards.admin().split(AdoptionContract.S0, ShardId.of("s2"), MoveOptions.defaults());
            shards.admin().split(ShardId.of("s1"), ShardId.of("s3"), MoveOptions.defaults());
        } finally {
            stopNew.set(true);
            newApp.shutdown();
        }
        newWriter.get(60, TimeUnit.SECONDS);
        for (int i = 0; i < 5; i++) {
            ledger.add(ack("four shards", AdoptionContract.writeCustomerWithOrder(shards, "after split " + i)));
        }
        for (String phase : List.of("old", "adopted", "split", "four shards")) {
            assertThat(phase(ledger, phase)).as("acknowledged writes in phase " + phase).isPositive();
        }
        assertThat(shards.shards()).hasSize(4);

        // The audit, over plain JDBC.
        Map<String, List<Long>> all = new HashMap<>();
        for (ShardDatabase db : dbs.shards()) {
            String id = db.id();
            assertThat(AdoptionContract.count(dbs, id, "select count(*) from currency")).as("currencies on " + id)
                    .isEqualTo(3);
            Map<String, Set<Long>> here = AdoptionContract.ids(dbs, id);
            here.forEach((table, ids) -> all.computeIfAbsent(table, t -> new ArrayList<>()).addAll(ids));
            assertThat(here.get("customer")).as("customers on " + id).isNotEmpty();
            for (long customer : here.get("customer")) {
                assertThat(shards.shardFor(Customer.class, customer)).as("the shard of customer " + customer)
                        .contains(ShardId.of(id));
            }
            assertThat(AdoptionContract.count(dbs, id, "select count(*) from purchase_order o where not exists "
                    + "(select 1 from customer c where c.id = o.customer_id)")).as("orders away from their customer on "
                    + id).isZero();
            assertThat(AdoptionContract.count(dbs, id, "select count(*) from order_line l where not exists "
                    + "(select 1 from purchase_order o where o.id = l.order_id and o.customer_id = l.customer_id)"))
                    .as("lines away from their order or of another customer's order on " + id).isZero();
        }
        List<Ack> acks = new ArrayList<>(ledger);
        Map<String, List<Long>> expected = new HashMap<>();
        for (String table : AdoptionContract.TABLES) {
            expected.put(table, new ArrayList<>(seeded.get(table)));
        }
        for (Ack ack : acks) {
            expected.get("customer").add(ack.customer());
            expected.get("purchase_order").add(ack.order());
            expected.get("order_line").add(ack.line());
        }
        for (String table : AdoptionContract.TABLES) {
            assertThat(expected.get(table)).as("acknowledged ids of " + table).doesNotHaveDuplicates();
            assertThat(all.get(table)).as("ids of " + table + " over all shards").doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(expected.get(table));
        }
        for (ShardId shard : shards.shards()) {
            assertThat(shards.directory().virtualShardsOf(shard)).as("virtual shards of " + shard).hasSize(16);
        }
    }

    private static Ack ack(String phase, long[] ids) {
        return new Ack(phase, ids[0], ids[1], ids[2]);
    }

    private static long phase(ConcurrentLinkedQueue<Ack> ledger, String phase) {
        return ledger.stream().filter(ack -> ack.phase().equals(phase)).count();
    }

    /**
     * Applies the plan's files up to {@code target} while the old application writes (on H2, whose ALTER TABLE
     * rebuilds the table under concurrent inserts, between the files only), then waits for its next writes.
     *
     * @return the writes acknowledged while the files were applied
     */
    private long migrateWhileWriting(ShardDatabase shard, String target, AtomicBoolean paused,
            ConcurrentLinkedQueue<Ack> ledger, Future<?> writer) throws Exception {
        paused.set(kind() == DatabaseKind.H2);
        long before = ledger.size();
        ShardingPlanContract.migrate(shard, dir, target);
        long after = ledger.size();
        paused.set(false);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ledger.size() < after + 5 && !writer.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        if (writer.isDone()) {
            writer.get(); // rethrows the write that failed
        }
        assertThat((long) ledger.size()).as("the old application writes after V" + target).isGreaterThan(after);
        return after - before;
    }

    /** The old application: ids made by the database; the key on the lines once its new version is deployed. */
    private static Void writeAsTheOldApplication(ShardDatabase shard, AtomicBoolean writesKey, AtomicBoolean paused,
            AtomicBoolean stop, ConcurrentLinkedQueue<Ack> ledger) throws Exception {
        try (Connection connection = DriverManager.getConnection(shard.url(), shard.user(), shard.password())) {
            while (!stop.get()) {
                if (paused.get()) {
                    Thread.sleep(1);
                    continue;
                }
                long customer = ShardingPlanContract.insert(connection, "insert into customer (name) values (?)",
                        "old application");
                long order = ShardingPlanContract.insert(connection,
                        "insert into purchase_order (customer_id, note) values (?, ?)", customer, "old application");
                long line = writesKey.get()
                        ? ShardingPlanContract.insert(connection,
                                "insert into order_line (order_id, customer_id, item) values (?, ?, ?)", order,
                                customer, "with key")
                        : ShardingPlanContract.insert(connection,
                                "insert into order_line (order_id, item) values (?, ?)", order, "without key");
                ledger.add(new Ack("old", customer, order, line));
            }
        }
        return null;
    }
}
