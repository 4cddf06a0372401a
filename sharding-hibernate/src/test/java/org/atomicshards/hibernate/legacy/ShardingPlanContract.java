package org.atomicshards.hibernate.legacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import liquibase.Scope;
import liquibase.command.CommandScope;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.DirectoryResourceAccessor;
import org.atomicshards.hibernate.FlywayPlanWriter;
import org.atomicshards.hibernate.LiquibasePlanWriter;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardingPlan;
import org.atomicshards.hibernate.UnknownShardException;
import org.atomicshards.hibernate.admin.AdoptionReport;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ShardSchema.shardingPlan} on the one-database application's database (IDENTITY ids, order lines two foreign
 * keys from their customer without its key): the plan written as Flyway files after the application's own
 * migrations, applied by Flyway itself while a writer inserts customers, orders and lines (first as the old
 * application, without the key, then as the version that writes it), leaves no sharding gap, every line with its
 * order's customer, and the database adoptable; the Liquibase changelog does the same through Liquibase.
 */
abstract class ShardingPlanContract {

    private static final int BATCH = 25;

    private final AdoptionContract support = new AdoptionContract() {
        @Override
        protected DatabaseKind kind() {
            return ShardingPlanContract.this.kind();
        }
    };

    @TempDir
    Path dir;

    private AtomicBoolean paused = new AtomicBoolean();

    protected abstract DatabaseKind kind();

    @AfterEach
    void closeAll() {
        support.closeAll();
    }

    @Test
    void flywayAppliesThePlanWhileTheApplicationWritesThenAdoptSucceeds() throws Exception {
        ShardDatabases dbs = support.databases(1);
        LegacyDatabase legacy = new LegacyDatabase(dbs, "s0");
        legacy.createSchema();
        legacy.seed(60); // 240 lines: ten batches
        ShardedSessionFactory shards = support.boot(dbs, 1, Map.of());
        Files.writeString(dir.resolve("V3__the_applications_last_migration.sql"), "-- applied before the plan\n");

        ShardingPlan plan = shards.schema().shardingPlan(AdoptionContract.S0, BATCH);
        assertThat(plan.steps()).extracting(ShardingPlan.Step::name).containsExactly("add_shard_key_columns",
                "fill_shard_keys", "shard_keys_not_null", "shard_key_indexes", "drop_database_generated_ids");
        assertThat(plan.steps()).filteredOn(ShardingPlan.Step::atRestart).extracting(ShardingPlan.Step::name)
                .containsExactly("drop_database_generated_ids");
        List<Path> files = FlywayPlanWriter.write(plan, dir);
        assertThat(files).extracting(file -> file.getFileName().toString()).contains("V4__add_shard_key_columns.sql",
                "V5__fill_shard_keys.sql", "V8__drop_database_generated_ids.sql");
        if (kind() == DatabaseKind.POSTGRESQL) {
            assertThat(Files.readString(dir.resolve("V7__shard_key_indexes.sql"))).contains("CONCURRENTLY",
                    "postgresql.transactional.lock=false");
        }
        assertThat(Files.readString(dir.resolve("V8__drop_database_generated_ids.sql")))
                .contains("@SequenceBlockId", "adopt", "RESTART");

        ShardDatabase s0 = dbs.shards().get(0);
        AtomicBoolean writesKey = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        paused = new AtomicBoolean();
        AtomicLong written = new AtomicLong();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        Future<?> writer = executor.submit(() -> write(s0, writesKey, stop, written));
        try {
            migrateWhileWriting(s0, "4", written, writer);
            writesKey.set(true); // the application version that writes the key is deployed
            long during = 0;
            for (String version : List.of("5", "6", "7")) {
                during += migrateWhileWriting(s0, version, written, writer);
            }
            if (kind() != DatabaseKind.H2) {
                assertThat(during).as("writes while the fill, NOT NULL and the index were applied").isPositive();
            }
        } finally {
            stop.set(true);
            executor.shutdown();
        }
        writer.get(60, TimeUnit.SECONDS); // rethrows a failed write
        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        migrate(s0, "8"); // at the restart: the old application stopped

        assertThat(ShardingGapsContract.gaps(shards)).isEmpty();
        assertEveryLineHasItsOrdersCustomer(s0);
        AdoptionReport adopted = shards.admin().adopt(AdoptionContract.S0, false);
        assertThat(adopted.applied()).isTrue();
        assertThat(adopted.nextIds()).containsEntry(OrderLine.class.getName(), legacy.maxId("order_line") + 1);
    }

    @Test
    void liquibaseAppliesTheChangelog() throws Exception {
        ShardDatabases dbs = support.databases(1);
        LegacyDatabase legacy = new LegacyDatabase(dbs, "s0");
        legacy.createSchema();
        legacy.seed(10);
        ShardedSessionFactory shards = support.boot(dbs, 1, Map.of());
        ShardingPlan plan = shards.schema().shardingPlan(AdoptionContract.S0, 7);

        for (String name : List.of("plan.yaml", "plan.xml")) {
            Path changelog = LiquibasePlanWriter.write(plan, dir.resolve(name));
            assertThat(Files.readString(changelog)).contains("runInTransaction", "atomicshards");
        }
        ShardDatabase s0 = dbs.shards().get(0);
        try (Connection connection = DriverManager.getConnection(s0.url(), s0.user(), s0.password())) {
            Database database = DatabaseFactory.getInstance()
                    .findCorrectDatabaseImplementation(new JdbcConnection(connection));
            Scope.child(Map.of(Scope.Attr.resourceAccessor.name(), new DirectoryResourceAccessor(dir)),
                    () -> new CommandScope(UpdateCommandStep.COMMAND_NAME)
                            .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                            .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, "plan.yaml")
                            .execute());
        }

        assertThat(ShardingGapsContract.gaps(shards)).isEmpty();
        assertEveryLineHasItsOrdersCustomer(s0);
        assertThat(shards.schema().shardingPlan(AdoptionContract.S0, 7).steps()).as("nothing left to plan").isEmpty();
    }

    @Test
    void refusesAnUnknownShardAndABatchBelowOne() throws SQLException {
        ShardDatabases dbs = support.databases(1);
        new LegacyDatabase(dbs, "s0").createSchema();
        ShardedSessionFactory shards = support.boot(dbs, 1, Map.of());

        assertThatThrownBy(() -> shards.schema().shardingPlan(ShardId.of("s9"), 100))
                .isInstanceOf(UnknownShardException.class).hasMessageContaining("s9").hasMessageContaining("s0");
        assertThatThrownBy(() -> shards.schema().shardingPlan(AdoptionContract.S0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batch size");
    }

    /**
     * Applies the migrations up to {@code target} while the writer writes (on H2, whose ALTER TABLE rebuilds the
     * table under concurrent inserts, between the migrations only), then waits for the writer's next writes.
     *
     * @return the writes made while the migrations were applied
     */
    private long migrateWhileWriting(ShardDatabase shard, String target, AtomicLong written, Future<?> writer)
            throws Exception {
        paused.set(kind() == DatabaseKind.H2);
        long before = written.get();
        migrate(shard, target);
        long after = written.get();
        paused.set(false);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (written.get() < after + 5 && !writer.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        if (writer.isDone()) {
            writer.get(); // rethrows the write that failed
        }
        assertThat(written.get()).as("the application writes after V" + target).isGreaterThan(after);
        return after - before;
    }

    private void migrate(ShardDatabase shard, String target) {
        migrate(shard, dir, target);
    }

    /** Flyway itself applies the files in {@code dir} (after the application's V3) up to {@code target}. */
    static void migrate(ShardDatabase shard, Path dir, String target) {
        Flyway.configure().dataSource(shard.url(), shard.user(), shard.password())
                .locations("filesystem:" + dir.toAbsolutePath()).baselineOnMigrate(true).baselineVersion("3")
                .target(target)
                .configuration(Map.of("flyway.postgresql.transactional.lock", "false")) // as the plan's file says
                .load().migrate();
    }

    /** Customers, orders and lines as the application writes them: with the key on the lines once it knows it. */
    private Void write(ShardDatabase shard, AtomicBoolean writesKey, AtomicBoolean stop, AtomicLong written)
            throws Exception {
        try (Connection connection = DriverManager.getConnection(shard.url(), shard.user(), shard.password())) {
            while (!stop.get()) {
                if (paused.get()) {
                    Thread.sleep(1);
                    continue;
                }
                long customer = insert(connection, "insert into customer (name) values (?)", "writer");
                long order = insert(connection, "insert into purchase_order (customer_id, note) values (?, ?)",
                        customer, "written during the migration");
                if (writesKey.get()) {
                    insert(connection, "insert into order_line (order_id, customer_id, item) values (?, ?, ?)", order,
                            customer, "with key");
                } else {
                    insert(connection, "insert into order_line (order_id, item) values (?, ?)", order, "old");
                }
                written.incrementAndGet();
            }
        }
        return null;
    }

    static long insert(Connection connection, String sql, Object... values) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i]);
            }
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    private static void assertEveryLineHasItsOrdersCustomer(ShardDatabase shard) throws SQLException {
        try (Connection connection = DriverManager.getConnection(shard.url(), shard.user(), shard.password());
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("select count(*), sum(case when l.customer_id = o.customer_id "
                     + "then 1 else 0 end) from order_line l join purchase_order o on o.id = l.order_id")) {
            rs.next();
            assertThat(rs.getLong(1)).isGreaterThan(0);
            assertThat(rs.getLong(2)).as("lines with their order's customer").isEqualTo(rs.getLong(1));
        }
    }
}
