package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import org.atomicshards.hibernate.internal.boot.ShardingRuntime;
import org.atomicshards.hibernate.model.Photo;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.Test;

/** One pool per shard, started on first use; routed operations answered without the catalog. */
class PoolsAndDirectoryCacheTest {

    private static ShardingRuntime runtimeOf(ShardedSessionFactory shards) {
        return shards.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                .requireService(MultiTenantConnectionProvider.class).unwrap(ShardingRuntime.class);
    }

    @Test
    void eachShardsPoolStartsOnFirstUseAndIsNamedAfterTheShard() throws Exception {
        try (ShardDatabases dbs = ShardDatabases.create(DatabaseKind.H2, 4)) {
            for (var shard : dbs.shards()) {
                try (Connection c = dbs.connect(shard.id()); Statement s = c.createStatement()) {
                    s.execute("create table app_user (id bigint primary key, email varchar(255))");
                }
            }
            ShardedSessionFactoryBuilder builder = Fixtures.builder(dbs, 16).schemaAction("none");
            ShardingRuntime runtime;
            try (ShardedSessionFactory shards = builder.build()) {
                runtime = runtimeOf(shards);
                // Hibernate reads JDBC metadata from the first shard at boot; the others stay closed.
                assertThat(runtime.pools().startedPools()).containsOnlyKeys(ShardId.of("s0"));
                long key = 1;
                while (!shards.shardFor(User.class, key).orElseThrow().name().equals("s2")) {
                    key++;
                }
                shards.persist(new User(key, "on s2"));
                assertThat(runtime.pools().startedPools()).containsOnlyKeys(ShardId.of("s0"), ShardId.of("s2"));
                assertThat(runtime.pools().startedPools().get(ShardId.of("s2")).getPoolName()).endsWith("-s2");
                assertThat(runtime.pools().startedPools().get(ShardId.of("s2")).getMaximumPoolSize()).isEqualTo(16);
            }
            assertThat(runtime.pools().startedPools()).as("pools closed with the factory").isEmpty();
        }
    }

    @Test
    void thePoolsShareOneHousekeepingSchedulerThatClosingTheFactoryEnds() {
        try (ShardDatabases dbs = ShardDatabases.create(DatabaseKind.H2, 6)) {
            String prefix;
            try (ShardedSessionFactory shards = Fixtures.builder(dbs, 16).build()) {
                ShardingRuntime runtime = runtimeOf(shards);
                assertThat(runtime.pools().startedPools()).as("the schema action started every pool").hasSize(6);
                String s0 = runtime.pools().startedPools().get(ShardId.of("s0")).getPoolName();
                prefix = s0.substring(0, s0.length() - "s0".length());
                assertThat(housekeepers(prefix)).as("HikariCP's housekeeping threads of the pools")
                        .isNotEmpty()
                        .hasSizeLessThanOrEqualTo(2)
                        .allSatisfy(name -> assertThat(name).startsWith(prefix + "housekeeper-"));
                assertThat(shards.fanOut().createQuery("select count(u) from User u", Long.class).getResultList())
                        .containsExactly(0L);
                assertThat(housekeepers(prefix)).hasSizeLessThanOrEqualTo(2);
            }
            assertThat(housekeepers(prefix)).as("housekeeping threads after the factory closed").isEmpty();
        }
    }

    /**
     * Live threads of the factory's shard pools named like a housekeeper: ours, or HikariCP's own
     * "<pool>:housekeeper" (the catalog's one pool keeps its own).
     */
    private static List<String> housekeepers(String poolPrefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith(poolPrefix) && name.contains("housekeeper"))
                .filter(name -> !name.startsWith(poolPrefix + "catalog:"))
                .toList();
    }

    @Test
    void routedOperationsNeverQueryTheCatalog() throws Exception {
        try (ShardDatabases dbs = ShardDatabases.create(DatabaseKind.H2, 2)) {
            String catalog = dbs.newCatalogUrl();
            ShardedSessionFactoryBuilder builder = Fixtures.builderOnSharedCatalog(dbs, 16).catalog(catalog)
                    .policy(User.class, Policies.roundRobin());
            try (ShardedSessionFactory shards = builder.build()) {
                for (long id = 0; id < 10; id++) {
                    shards.persist(new User(id, "u" + id));
                }
                try (Connection c = DriverManager.getConnection(catalog); Statement s = c.createStatement()) {
                    s.execute("shutdown");  // the catalog database is gone from here on
                }
                for (long id = 0; id < 10; id++) {
                    long key = id;
                    assertThat(shards.find(User.class, key).getEmail()).isEqualTo("u" + key);
                    shards.persist(new Photo(key, "blob://" + key));
                    shards.inUnit(User.class, key, session -> session.find(User.class, key).setEmail("changed"));
                }
                assertThat(Fixtures.totalRows(dbs, "Photo")).isEqualTo(10);
            }
        }
    }
}
