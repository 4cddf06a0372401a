package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.atomicshards.hibernate.admin.MoveFailedException;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The application and the resharding operations connect to the shards as different PostgreSQL users. An application
 * user that may only read and write rows runs units of work once the fence's tables exist; one that may not read one of
 * them is told which table, and writes nothing until it may. An operation whose user may not end the application's
 * leased sessions stops naming the fix, its shards still armed and nothing moved or lost; once the right is granted,
 * {@code resume} ends the session and carries the move through.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SeparateUsersPostgresIT {

    private static final int VIRTUAL_SHARDS = 16;
    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");

    private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 8)
            .toLowerCase(Locale.ROOT);
    /** Owns the tables; the two users below are its members, so both may read and write them. */
    private final String owner = "as_owner_" + suffix;
    private final String holder = "as_holder_" + suffix;
    private final String mover = "as_mover_" + suffix;
    /** Reads and writes rows only; not a member of the owner. */
    private final String application = "as_app_" + suffix;
    private ShardDatabases dbs;

    @BeforeAll
    void createDatabasesAndUsers() throws SQLException {
        dbs = ShardDatabases.create(DatabaseKind.POSTGRESQL, 2);
        try (Connection c = admin("postgres"); Statement s = c.createStatement()) {
            s.execute("create role " + owner + " login");
            s.execute("create role " + holder + " login in role " + owner);
            s.execute("create role " + mover + " login in role " + owner);
            s.execute("create role " + application + " login");
            s.execute("grant " + application + " to " + owner); // the owner may see and end its sessions
        }
        for (ShardDatabase shard : dbs.shards()) {
            try (Connection c = dbs.connect(shard.id()); Statement s = c.createStatement()) {
                s.execute("alter schema public owner to " + owner);
            }
        }
    }

    @AfterAll
    void dropDatabasesAndUsers() throws SQLException {
        if (dbs != null) {
            dbs.close();
        }
        try (Connection c = admin("postgres"); Statement s = c.createStatement()) {
            for (String role : new String[] {application, mover, holder, owner}) {
                s.execute("drop role if exists " + role);
            }
        }
    }

    @Test
    void anApplicationUserThatOnlyWritesRowsRunsUnitsOfWorkAndAMoveEndsItsLeases() throws Exception {
        String catalog = dbs.newCatalogUrl();
        createSchemaAsOwner(catalog);
        grantApplicationRowRights();
        try (ShardedSessionFactory writer = as(application, catalog)
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "600000") // keeps its leases
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "true").build();
             ShardedSessionFactory operator = as(owner, catalog)
                     .property(ShardingSettings.RESHARDING_LEASE_GRACE, "300")
                     .property(ShardingSettings.RESHARDING_END_LEASED_SESSIONS, "true").build()) {
            long onS0 = Fixtures.keyOn(writer, S0, 1_000); // not the owner's user on s0
            writer.inUnit(User.class, onS0, session -> session.persist(new User(onS0, "written by the application")));
            writer.inUnit(User.class, onS0, session -> session.persist(new Status(session.find(User.class, onS0),
                    "a member")));
            assertThat(single(S0, "select count(*) from as_fence_lease")).as("its connection leased").isPositive();

            // the writer never refreshes: the move finishes only because it could end the writer's leased sessions
            operator.admin().move(Set.of(Fixtures.virtualShardOf(operator, onS0)), S1, MoveOptions.defaults());

            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", onS0)).isTrue();
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", onS0)).isFalse();
            assertThat(statuses(S1, onS0)).isEqualTo(1);
        }
    }

    @Test
    void aRefusedSessionEndStopsTheOperationArmedAndResumeFinishesItOnceAllowed() throws Exception {
        String catalog = dbs.newCatalogUrl();
        createSchemaAsOwner(catalog);
        try (ShardedSessionFactory writer = as(holder, catalog)
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "600000") // keeps its leases
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "true").build();
             ShardedSessionFactory operator = as(mover, catalog)
                     .property(ShardingSettings.RESHARDING_LEASE_GRACE, "300")
                     .property(ShardingSettings.RESHARDING_END_LEASED_SESSIONS, "true").build()) {
            long key = Fixtures.keyOn(writer, S0, 1);
            int bucket = Fixtures.virtualShardOf(writer, key);
            OpenUnitOfWork held = OpenUnitOfWork.flushStatus(writer, key, "held through the refusal");

            assertThatThrownBy(() -> operator.admin().move(Set.of(bucket), S1, MoveOptions.defaults()))
                    .isInstanceOf(MoveFailedException.class)
                    .hasMessageContaining("refused to end it")
                    .hasMessageContaining("Fix:");
            assertThat(single(S0, "select armed from as_lease_state where id = 1")).as("s0 stays armed").isPositive();
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).as("nothing moved").isTrue();
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", key)).isFalse();

            held.release();
            held.done().get(30, TimeUnit.SECONDS); // it began before the arm, on the shard that still owns the unit
            assertThat(statuses(S0, key)).isEqualTo(1);

            try (Connection c = admin("postgres"); Statement s = c.createStatement()) {
                s.execute("grant " + holder + " to " + mover); // now it may end the holder's sessions
            }
            operator.admin().resume(); // it finishes only if it ends the holder's sessions: the holder never refreshes

            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).isFalse();
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", key)).isTrue();
            assertThat(statuses(S1, key)).as("the acknowledged write moved with its unit").isEqualTo(1);
        }
    }

    @Test
    void anApplicationUserThatMayNotReadAFenceTableIsToldWhichAndWritesNothing() throws Exception {
        String catalog = dbs.newCatalogUrl();
        createSchemaAsOwner(catalog);
        grantApplicationRowRights();
        try (Connection c = dbs.connect(S0.name()); Statement s = c.createStatement()) {
            s.execute("revoke all on as_ownership from " + application); // one fence table left out
        }
        try (ShardedSessionFactory writer = as(application, catalog).build()) {
            long key = Fixtures.keyOn(writer, S0, 2_000);
            assertThatThrownBy(() -> writer.inUnit(User.class, key,
                    session -> session.persist(new User(key, "not written"))))
                    .hasMessageContaining("Cannot prepare the ownership fence on shard 's0'")
                    // the driver's own text may carry more detail (with its logging at FINEST, say): checked in parts
                    .hasMessageContaining("this user found the fence's table as_ownership (")
                    .hasMessageContaining("permission denied for table as_ownership")
                    .hasMessageContaining(") missing or unreadable")
                    .hasMessageContaining("Fix: start one instance as a user that may create tables, or grant this "
                            + "user the rights it lacks");
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).as("nothing written").isFalse();

            try (Connection c = dbs.connect(S0.name()); Statement s = c.createStatement()) {
                s.execute("grant select, insert, update, delete on as_ownership to " + application);
            }
            writer.inUnit(User.class, key, session -> session.persist(new User(key, "written once allowed")));
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).isTrue();
        }
    }

    @Test
    void anApplicationUserThatMayNotCreateItsRingRowsIsToldAndWritesNothing() throws Exception {
        String catalog = dbs.newCatalogUrl();
        createSchemaAsOwner(catalog); // the owner's instance places users by hash: no ring row on the shards yet
        grantApplicationRowRights();
        try (Connection c = dbs.connect(S0.name()); Statement s = c.createStatement()) {
            s.execute("revoke insert on as_ring_fence from " + application);
        }
        try (ShardedSessionFactory writer = as(application, catalog).policy(User.class, Policies.consistentHash())
                .build()) {
            long key = Fixtures.keyOn(writer, S0, 3_000);
            assertThatThrownBy(() -> writer.inUnit(User.class, key,
                    session -> session.persist(new User(key, "not written"))))
                    .hasMessageContaining("Cannot prepare the ownership fence on shard 's0'")
                    .hasMessageContaining("permission denied for table as_ring_fence")
                    .hasMessageContaining("Fix: start one instance as a user that may create tables, or grant this "
                            + "user the rights it lacks");
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).as("nothing written").isFalse();
            assertThat(single(S0, "select count(*) from as_ring_fence")).as("no ring row").isZero();

            try (Connection c = dbs.connect(S0.name()); Statement s = c.createStatement()) {
                s.execute("grant insert on as_ring_fence to " + application);
            }
            writer.inUnit(User.class, key, session -> session.persist(new User(key, "written once allowed")));
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).isTrue();
            assertThat(single(S0, "select count(*) from as_ring_fence where state = 'OWNED'"))
                    .as("the ring row of its one unit, created before its first write").isOne();
        }
    }

    /**
     * Creates the mapped tables as the owner, and the fence's tables too (an instance creates them at its first
     * connection to a shard): both belong to the owner.
     */
    private void createSchemaAsOwner(String catalog) {
        try (ShardedSessionFactory created = as(owner, catalog).schemaAction("create")
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false").build()) {
            for (ShardId shard : created.shards()) {
                long key = Fixtures.keyOn(created, shard, 1);
                created.inUnit(User.class, key, session -> session.persist(new User(key, "created by the owner")));
            }
        }
    }

    /** Lets the application user read and write every table's rows (no DDL) on every shard. */
    private void grantApplicationRowRights() throws SQLException {
        for (ShardDatabase shard : dbs.shards()) {
            try (Connection c = dbs.connect(shard.id()); Statement s = c.createStatement()) {
                s.execute("grant usage on schema public to " + application);
                s.execute("grant select, insert, update, delete on all tables in schema public to " + application);
                s.execute("grant usage, select on all sequences in schema public to " + application);
            }
        }
    }

    /** An instance on the shared catalog whose shard connections log in as {@code user}. */
    private ShardedSessionFactoryBuilder as(String user, String catalog) {
        ShardedSessionFactoryBuilder builder = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog);
        for (ShardDatabase shard : dbs.shards()) {
            builder.property(ShardingSettings.SHARD_PREFIX + shard.id() + ".user", user)
                    .property(ShardingSettings.SHARD_PREFIX + shard.id() + ".password", "");
        }
        return builder;
    }

    private Connection admin(String database) throws SQLException {
        String url = dbs.shards().get(0).url();
        return DriverManager.getConnection(url.substring(0, url.lastIndexOf('/') + 1) + database,
                dbs.shards().get(0).user(), dbs.shards().get(0).password());
    }

    private long single(ShardId shard, String sql) throws SQLException {
        try (Connection c = dbs.connect(shard.name()); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private long statuses(ShardId shard, long user) throws SQLException {
        try (Connection c = dbs.connect(shard.name());
             PreparedStatement ps = c.prepareStatement("select count(*) from Status where user_id = ?")) {
            ps.setLong(1, user);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
