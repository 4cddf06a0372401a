package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;


import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.ChaosProxy;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Write leases on database servers reached through a TCP proxy: the server sees the proxy's connection, not this
 * process's socket, so the instance cannot prove the server session is its connection's for good and takes no lease
 * there; the shard it reaches directly leases as before. (PgBouncer in transaction mode: {@code
 * PgBouncerLeasesPostgresIT}.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ProxiedLeaseContract {

    private static final int VIRTUAL_SHARDS = 16;
    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");

    protected abstract DatabaseKind kind();

    private ShardDatabases dbs;

    @BeforeAll
    void createDatabases() {
        dbs = ShardDatabases.create(kind(), 2);
    }

    @AfterAll
    void dropDatabases() {
        dbs.close();
    }

    @Test
    void aShardReachedThroughAProxyLeasesNoConnectionAndOneReachedDirectlyDoes() {
        String catalog = dbs.newCatalogUrl();
        String s0 = dbs.shards().get(0).url();
        try (ShardedSessionFactory created = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false").build();
             ChaosProxy proxy = ChaosProxy.forUrl(s0);
             ShardedSessionFactory shards = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                     .property(ShardingSettings.SHARD_PREFIX + "s0.url", proxy.route(s0))
                     .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "true").build()) {
            long onS0 = Fixtures.keyOn(shards, S0, 4_000_000);
            long onS1 = Fixtures.keyOn(shards, S1, 4_000_000);
            shards.inUnit(User.class, onS0, session -> session.persist(new User(onS0, "through the proxy")));
            shards.inUnit(User.class, onS1, session -> session.persist(new User(onS1, "direct")));
            assertThat(proxy.openConnections()).as("s0's connections go through the proxy").isPositive();
            assertThat(Fixtures.rowsOn(dbs, S0.name(), "as_fence_lease")).as("no lease through the proxy").isZero();
            assertThat(Fixtures.rowsOn(dbs, S1.name(), "as_fence_lease")).as("a lease on the direct shard")
                    .isPositive();
        }
    }
}
