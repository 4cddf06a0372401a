package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The catalog's versioned schema on a catalog database of {@link #kind()} (created for the test and dropped after;
 * the {@code *IT} subclasses use PostgreSQL and MariaDB): the scripts in the jar run as-is (statement by statement
 * over plain JDBC, as a migration tool would), {@code validate} mode runs no DDL and names what is missing and the script that creates it,
 * and {@code create} mode upgrades a version 1 catalog, and adopts one created before the schema was versioned,
 * keeping its map and placements.
 */
class CatalogSchemaTest {

    private ShardDatabases dbs;
    private ShardDatabases catalogDatabase;
    private ShardDatabase catalog;

    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    private String folder() {
        return switch (kind()) {
            case H2 -> "h2";
            case POSTGRESQL -> "postgresql";
            case MARIADB -> "mariadb";
        };
    }

    @BeforeEach
    void databases() {
        dbs = ShardDatabases.create(DatabaseKind.H2, 2);
        catalogDatabase = ShardDatabases.create(kind(), 1);
        catalog = catalogDatabase.shards().get(0);
    }

    @AfterEach
    void drop() {
        try {
            dbs.close();
        } finally {
            catalogDatabase.close();
        }
    }

    private ShardedSessionFactory boot(String catalogSchema) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                .virtualShards(16).schemaAction("create")
                .property("atomicshards.unit.User.policy", "round_robin")
                .property(ShardingSettings.CATALOG_SCHEMA, catalogSchema);
        dbs.settings().forEach(builder::property);
        return builder.catalog(catalog.url(), catalog.user(), catalog.password()).build();
    }

    private Connection connect() throws Exception {
        return DriverManager.getConnection(catalog.url(), catalog.user(), catalog.password());
    }

    private void sql(String... statements) throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }

    /** Runs a script of the jar as a migration tool does: statement by statement, comments skipped. */
    private void runScript(String fileName) throws Exception {
        String resource = "META-INF/atomic-shards/catalog/" + folder() + "/" + fileName;
        String text;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String withoutComments = text.lines().filter(line -> !line.strip().startsWith("--"))
                .reduce("", (a, b) -> a + b + "\n");
        List<String> statements = new ArrayList<>();
        for (String statement : withoutComments.split(";\\s*\n")) {
            if (!statement.isBlank()) {
                statements.add(statement.strip());
            }
        }
        sql(statements.toArray(String[]::new));
    }

    private List<String> column(String query) throws Exception {
        List<String> values = new ArrayList<>();
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    private List<String> directoryTables() throws Exception {
        List<String> tables = new ArrayList<>();
        try (Connection c = connect();
             ResultSet rs = c.getMetaData().getTables(c.getCatalog(), c.getSchema(), "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME").toLowerCase(java.util.Locale.ROOT);
                if (name.startsWith("as_")) {
                    tables.add(name);
                }
            }
        }
        return tables;
    }

    /** What a catalog of version 1 holds once an instance wrote it: map version 1 (reversed halves), a placement. */
    private void writeVersion1Directory() throws Exception {
        try (Connection c = connect()) {
            try (PreparedStatement ps = c.prepareStatement("insert into as_map_version values (1, 16, ?, 'initial')")) {
                ps.setTimestamp(1, Timestamp.from(Instant.now()));
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("insert into as_virtual_shard values (1, ?, ?, 'ONLINE')")) {
                for (int v = 0; v < 16; v++) {
                    ps.setInt(1, v);
                    ps.setString(2, v < 8 ? "s1" : "s0");
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            try (PreparedStatement ps = c.prepareStatement("insert into as_placement values (?, '7', 12)")) {
                ps.setString(1, User.class.getName());
                ps.executeUpdate();
            }
        }
    }

    @Test
    void validateOnAnEmptyCatalogNamesTheMissingTableAndTheScriptAndWritesNothing() throws Exception {
        assertThatThrownBy(() -> boot("validate"))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("lacks table")
                .hasMessageContaining("META-INF/atomic-shards/catalog/" + folder() + "/V1__catalog.sql");
        assertThat(directoryTables()).isEmpty();
    }

    @Test
    void theShippedScriptsRunAsMigrationsAndValidateThenBoots() throws Exception {
        runScript("V1__catalog.sql");
        runScript("V2__shard_registry.sql");
        runScript("V3__shard_topology.sql");
        runScript("V4__move_journal.sql");
        try (ShardedSessionFactory shards = boot("validate")) {
            shards.persist(new User(1L, "u1"));
            assertThat(shards.find(User.class, 1L).getEmail()).isEqualTo("u1");
        }
        assertThat(column("select version from as_schema_version order by version")).containsExactly("1", "2", "3", "4");
        assertThat(column("select concat(shard_id, ':', status, ':', origin) from as_shard order by shard_id"))
                .containsExactly("s0:ONLINE:CONFIG", "s1:ONLINE:CONFIG");
    }

    @Test
    void aVersion2CatalogIsRefusedByValidateNamingTheUrlColumnAndUpgradedByCreateRecordingTheUrls() throws Exception {
        runScript("V1__catalog.sql");
        runScript("V2__shard_registry.sql");
        writeVersion1Directory();
        sql("insert into as_shard (shard_id, status, registered_at) values ('s0', 'ONLINE', current_timestamp)");

        assertThatThrownBy(() -> boot("validate"))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("lacks column as_shard.url (schema version 3)")
                .hasMessageContaining("META-INF/atomic-shards/catalog/" + folder() + "/V3__shard_topology.sql");

        try (ShardedSessionFactory shards = boot("create")) {
            assertThat(shards.shardFor(User.class, 7L)).contains(ShardId.of("s0"));
        }
        assertThat(column("select version from as_schema_version order by version")).containsExactly("1", "2", "3", "4");
        assertThat(column("select concat(shard_id, ':', origin) from as_shard order by shard_id"))
                .containsExactly("s0:CONFIG", "s1:CONFIG");
        assertThat(column("select url from as_shard order by shard_id"))
                .allSatisfy(url -> assertThat(url).startsWith("jdbc:").doesNotContainIgnoringCase("password"));
    }

    @Test
    void validateNamesAMissingColumnAndItsScript() throws Exception {
        runScript("V1__catalog.sql");
        runScript("V2__shard_registry.sql");
        sql("alter table as_shard drop column status");
        assertThatThrownBy(() -> boot("validate"))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("lacks column as_shard.status")
                .hasMessageContaining("META-INF/atomic-shards/catalog/" + folder() + "/V2__shard_registry.sql");
    }

    @Test
    void aVersion1CatalogIsRefusedByValidateAndUpgradedByCreateKeepingItsMapAndPlacements() throws Exception {
        runScript("V1__catalog.sql");
        writeVersion1Directory();

        assertThatThrownBy(() -> boot("validate"))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("lacks table as_shard (schema version 2)")
                .hasMessageContaining("V2__shard_registry.sql");

        try (ShardedSessionFactory shards = boot("create")) {
            assertThat(shards.directory().version()).isEqualTo(1);
            assertThat(shards.directory().shardOf(0)).isEqualTo(ShardId.of("s1"));
            assertThat(shards.shardFor(User.class, 7L)).contains(ShardId.of("s0"));
        }
        assertThat(column("select version from as_schema_version order by version")).containsExactly("1", "2", "3", "4");
        assertThat(column("select shard_id from as_shard order by shard_id")).containsExactly("s0", "s1");
        try (ShardedSessionFactory shards = boot("validate")) {
            assertThat(shards.shardFor(User.class, 7L)).contains(ShardId.of("s0"));
        }
    }

    @Test
    void aCatalogCreatedBeforeVersioningIsAdoptedAsVersion1AndUpgraded() throws Exception {
        // the tables exactly as the release before versioned scripts created them ("create if missing")
        sql("create table as_map_version (version integer not null primary key, virtual_shards integer not null, "
                        + "created_at timestamp not null, note varchar(200))",
                "create table as_virtual_shard (version integer not null, virtual_shard integer not null, "
                        + "shard_id varchar(64) not null, status varchar(16) not null, primary key (version, virtual_shard))",
                "create table as_placement (unit_name varchar(255) not null, unit_key varchar(255) not null, "
                        + "virtual_shard integer not null, primary key (unit_name, unit_key))",
                "create table as_ring_member (unit_name varchar(255) not null, shard_id varchar(64) not null, "
                        + "primary key (unit_name, shard_id))",
                "create table as_id_block (block_name varchar(255) not null primary key, next_value bigint not null)",
                "create table as_operation_log (at_time timestamp not null, operation varchar(64) not null, "
                        + "detail varchar(1000) not null)");
        writeVersion1Directory();

        try (ShardedSessionFactory shards = boot("create")) {
            assertThat(shards.shardFor(User.class, 7L)).contains(ShardId.of("s0"));
            assertThat(shards.directory().shardOf(15)).isEqualTo(ShardId.of("s0"));
        }
        assertThat(column("select version from as_schema_version order by version")).containsExactly("1", "2", "3", "4");
        assertThat(column("select count(*) from as_map_version")).containsExactly("1");
    }

    @Test
    void anInstanceWaitsForTheCatalogLockAtMostTheLockTimeoutNamingTheSetting() throws Exception {
        assumeTrue(kind() == DatabaseKind.H2, "holds H2's lock row; the server databases' locks are shown by ConcurrentBoot*IT");
        runScript("V1__catalog.sql");
        try (Connection holder = connect()) {
            holder.setAutoCommit(false);
            try (Statement s = holder.createStatement()) {
                s.executeQuery("select id from as_catalog_lock where id = 1 for update").close();
            }
            long start = System.nanoTime();
            assertThatThrownBy(() -> AtomicShards.configure().annotatedClasses(Fixtures.MODEL).virtualShards(16)
                    .property(ShardingSettings.CATALOG_LOCK_TIMEOUT, "1000")
                    .shard("s0", dbs.shards().get(0).url()).shard("s1", dbs.shards().get(1).url())
                    .catalog(catalog.url()).build())
                    .isInstanceOf(CatalogException.class)
                    .hasMessageContaining("Timed out after 1000 ms waiting for the lock of the shard catalog")
                    .hasMessageContaining(ShardingSettings.CATALOG_LOCK_TIMEOUT);
            assertThat((System.nanoTime() - start) / 1_000_000).isBetween(900L, 10_000L);
            holder.rollback();
        }
        try (ShardedSessionFactory shards = boot("create")) {
            assertThat(shards.directory().version()).isEqualTo(1);
        }
    }
}
