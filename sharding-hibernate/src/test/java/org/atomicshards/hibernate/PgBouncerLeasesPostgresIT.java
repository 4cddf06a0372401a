package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Shards reached through PgBouncer in transaction mode: a connection's transactions run in whichever server session
 * is free, so a write lease, which names one server session, would not hold its connection's later units of work.
 * Such connections hold no lease and their units of work enter the ownership fence; the instance says why, once per
 * shard. A direct connection to the same shard leases as before.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PgBouncerLeasesPostgresIT {

    private static final int VIRTUAL_SHARDS = 16;
    private static final ShardId S0 = ShardId.of("s0");

    private ShardDatabases dbs;
    private PgBouncer bouncer;

    @BeforeAll
    void start() {
        dbs = ShardDatabases.create(DatabaseKind.POSTGRESQL, 2);
        bouncer = PgBouncer.inTransactionMode("127.0.0.1", 5432, dbs.shards().get(0).user(), 4);
    }

    @AfterAll
    void stop() {
        if (bouncer != null) {
            bouncer.close();
        }
        dbs.close();
    }

    @Test
    void aConnectionThroughTransactionPoolingHoldsNoLeaseAndItsUnitsOfWorkAreFenced() throws Exception {
        String catalog = dbs.newCatalogUrl();
        List<String> warnings = new CopyOnWriteArrayList<>();
        Logger log = Logger.getLogger("org.atomicshards.hibernate.resharding");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                warnings.add(record.getMessage() == null ? "" : record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(capture);
        try (ShardedSessionFactory created = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false").build();
             ShardedSessionFactory pooled = throughPgBouncer(catalog).build()) {
            long key = Fixtures.keyOn(pooled, S0, 3_000_000);
            int bucket = Fixtures.virtualShardOf(pooled, key);
            pooled.inUnit(User.class, key, session -> session.persist(new User(key, "through PgBouncer")));
            pooled.inUnit(User.class, key, session -> session.persist(new Status(session.find(User.class, key),
                    "second unit of work")));
            assertThat(Fixtures.rowsOn(dbs, "s0", "as_fence_lease")).as("no lease through the pooler")
                    .isZero();
            assertThat(warnings).filteredOn(w -> w.contains("Shard 's0'") && w.contains("pooler or proxy"))
                    .as("the reason, once for the shard").hasSize(1);

            // what a move's freeze writes: only the fence can see it
            Fixtures.setOwnershipState(dbs, S0, bucket, "FROZEN");
            try {
                assertThatThrownBy(() -> pooled.inUnit(User.class, key, session -> session.persist(
                        new Status(session.find(User.class, key), "while frozen"))))
                        .isInstanceOf(ShardMovingException.class);
                assertThat(count("select count(*) from Status where text = 'while frozen'"))
                        .as("the fence refused the write").isZero();
            } finally {
                Fixtures.setOwnershipState(dbs, S0, bucket, "OWNED");
            }

            try (ShardedSessionFactory direct = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                    .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "true").build()) {
                direct.inUnit(User.class, key, session -> session.persist(new Status(session.find(User.class, key),
                        "direct")));
                assertThat(Fixtures.rowsOn(dbs, "s0", "as_fence_lease")).as("a direct connection leases")
                        .isPositive();
            }
        } finally {
            log.removeHandler(capture);
        }
    }

    private ShardedSessionFactoryBuilder throughPgBouncer(String catalog) {
        ShardedSessionFactoryBuilder builder = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "100")
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "true")
                .property(ShardingSettings.RESHARDING_WRITE_PAUSE, "300");
        dbs.shards().forEach(shard -> builder.property(ShardingSettings.SHARD_PREFIX + shard.id() + ".url",
                bouncer.route(shard.url())));
        return builder;
    }

    private long count(String sql) throws SQLException {
        try (Connection c = dbs.connect(S0.name()); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

}
