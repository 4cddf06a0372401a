package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shard directory in a catalog database of {@link #kind()} (created for the test and dropped after): units are
 * placed, a restart on the same catalog routes every key the same, and a same-named table in another schema is not
 * mistaken for the directory's.
 */
class CatalogDatabaseTest {

    private ShardDatabases dbs;
    private ShardDatabases catalogDatabase;
    private ShardDatabase catalog;

    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    @BeforeEach
    void databases() {
        dbs = ShardDatabases.create(kind(), 2);
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

    private ShardedSessionFactory boot(String policy, String schemaAction) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                .virtualShards(16)
                .connectionTimeoutMillis(10_000)
                .schemaAction(schemaAction)
                .property("atomicshards.unit.User.policy", policy);
        dbs.settings().forEach(builder::property);
        return builder.catalog(catalog.url(), catalog.user(), catalog.password()).build();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lookup", "round_robin"})
    void unitsArePlacedAndARestartRoutesEveryKeyTheSame(String policy) {
        Map<Long, ShardId> before = new HashMap<>();
        try (ShardedSessionFactory shards = boot(policy, "create")) {
            for (long id = 1; id <= 20; id++) {
                if (policy.equals("lookup")) {
                    shards.place(User.class, id, ShardId.of(id % 3 == 0 ? "s1" : "s0"));
                }
                shards.persist(new User(id, "u" + id));
                before.put(id, shards.shardFor(User.class, id).orElseThrow());
            }
            assertThat(before.values()).contains(ShardId.of("s0"), ShardId.of("s1"));
        }
        try (ShardedSessionFactory shards = boot(policy, "validate")) {
            before.forEach((id, shard) -> {
                assertThat(shards.shardFor(User.class, id)).contains(shard);
                assertThat(shards.find(User.class, id).getEmail()).isEqualTo("u" + id);
            });
        }
    }

    @Test
    void aSameNamedTableInAnotherSchemaIsNotMistakenForTheDirectorys() throws SQLException {
        String shadow = "as_shadow_" + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);
        try (Connection connection = DriverManager.getConnection(catalog.url(), catalog.user(), catalog.password());
             Statement statement = connection.createStatement()) {
            statement.execute("create schema " + shadow);
            statement.execute("create table " + shadow + ".as_map_version (other integer)");
        }
        try {
            try (ShardedSessionFactory shards = boot("round_robin", "create")) {
                shards.persist(new User(1L, "u1"));
                assertThat(shards.directory().version()).isEqualTo(1);
            }
        } finally {
            try (Connection connection = DriverManager.getConnection(catalog.url(), catalog.user(), catalog.password());
                 Statement statement = connection.createStatement()) {
                statement.execute("drop table " + shadow + ".as_map_version");
                statement.execute("drop schema " + shadow);
            }
        }
    }
}
