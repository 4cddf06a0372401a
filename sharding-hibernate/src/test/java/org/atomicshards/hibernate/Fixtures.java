package org.atomicshards.hibernate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.model.Country;
import org.atomicshards.hibernate.model.Photo;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;

/** Builds factories over test databases and reads what really landed on each shard over plain JDBC. */
final class Fixtures {

    static final Class<?>[] MODEL = {User.class, Status.class, Photo.class, Country.class};

    private Fixtures() {
    }

    /**
     * A builder over {@code dbs} with the seed model, {@code virtualShards} virtual shards, the schema created on
     * every shard (dropping what a previous test left) and a new, empty catalog.
     */
    static ShardedSessionFactoryBuilder builder(ShardDatabases dbs, int virtualShards) {
        return builderOnSharedCatalog(dbs, virtualShards).catalog(dbs.newCatalogUrl());
    }

    /** As {@link #builder}, on the catalog of {@code dbs}, which outlives the factory (for restart tests). */
    static ShardedSessionFactoryBuilder builderOnSharedCatalog(ShardDatabases dbs, int virtualShards) {
        // tests that stop an operation resume it themselves, and check what lies between: no instance of theirs may
        // carry it on in the background (the default does for one stopped past its switch; AutoResumeTest)
        return withDefaultAutoResume(dbs, virtualShards).property(ShardingSettings.RESHARDING_AUTO_RESUME, "false");
    }

    /** As {@link #builderOnSharedCatalog}, with {@code atomicshards.resharding.auto_resume} left at its default. */
    static ShardedSessionFactoryBuilder withDefaultAutoResume(ShardDatabases dbs, int virtualShards) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                .annotatedClasses(MODEL)
                .virtualShards(virtualShards)
                .connectionTimeoutMillis(10_000)
                .schemaAction("create");
        dbs.settings().forEach(builder::property);
        return builder;
    }

    /**
     * A second instance on the catalog {@code catalogUrl} another factory created the schema for: the same shards,
     * schema action none (for stale-instance and observer tests).
     */
    static ShardedSessionFactoryBuilder anotherInstance(ShardDatabases dbs, int virtualShards, String catalogUrl) {
        return builderOnSharedCatalog(dbs, virtualShards).catalog(catalogUrl).schemaAction("none");
    }

    /** Users {@code 0..count-1} (email {@code "u" + id}), each with two statuses, each in its own unit of work. */
    static void seedUsersWithTwoStatuses(ShardedSessionFactory factory, int count) {
        for (long id = 0; id < count; id++) {
            long key = id;
            factory.inUnit(User.class, key, session -> {
                User user = new User(key, "u" + key);
                session.persist(user);
                session.persist(new Status(user, "first"));
                session.persist(new Status(user, "second"));
            });
        }
    }

    /**
     * A builder over {@code dbs} with the seed model on the catalog {@code catalogUrl}, configured with the first
     * {@code configured} databases of {@code dbs} only: the others are not in {@code atomicshards.shards} and only
     * their user and password are set (as on an instance that takes over a shard added at run time), so a test can
     * add them with {@code admin().addShard(..)}.
     */
    static ShardedSessionFactoryBuilder builderWithFirst(ShardDatabases dbs, int virtualShards, int configured,
            String catalogUrl) {
        List<ShardDatabase> first = dbs.shards().subList(0, configured);
        ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                .annotatedClasses(MODEL)
                .virtualShards(virtualShards)
                .connectionTimeoutMillis(10_000)
                .schemaAction("create");
        dbs.settings().forEach((key, value) -> {
            boolean ofAnotherShard = key.startsWith(ShardingSettings.SHARD_PREFIX) && first.stream()
                    .noneMatch(shard -> key.startsWith(ShardingSettings.SHARD_PREFIX + shard.id() + "."));
            if (!key.equals(ShardingSettings.SHARDS) && (!ofAnotherShard || !key.endsWith(".url"))) {
                builder.property(key, value);
            }
        });
        builder.property(ShardingSettings.SHARDS, String.join(",", first.stream().map(ShardDatabase::id).toList()));
        builder.property(ShardingSettings.RESHARDING_AUTO_RESUME, "false"); // as builderOnSharedCatalog says
        return builder.catalog(catalogUrl);
    }

    /** The first user key from {@code from} up that {@code factory} routes to {@code shard}. */
    static long keyOn(ShardedSessionFactory factory, ShardId shard, long from) {
        for (long key = from; ; key++) {
            if (factory.shardFor(User.class, key).orElseThrow().equals(shard)) {
                return key;
            }
        }
    }

    /** The virtual shard the factory's routing gives the seed model's user key {@code key}. */
    static int virtualShardOf(ShardedSessionFactory factory, long key) {
        return ((ShardRouterImpl) factory.router()).unitOf(User.class).placement().virtualShardOf(key);
    }

    /** Rows of {@code table} on each shard, read with plain JDBC. */
    static Map<String, Long> rowsPerShard(ShardDatabases dbs, String table) {
        Map<String, Long> rows = new LinkedHashMap<>();
        for (ShardDatabase shard : dbs.shards()) {
            rows.put(shard.id(), count(dbs, shard.id(), "select count(*) from " + table));
        }
        return rows;
    }

    /** Rows of {@code table} on {@code shardId}, read with plain JDBC. */
    static long rowsOn(ShardDatabases dbs, String shardId, String table) {
        return count(dbs, shardId, "select count(*) from " + table);
    }

    /** Total rows of {@code table} over all shards. */
    static long totalRows(ShardDatabases dbs, String table) {
        return rowsPerShard(dbs, table).values().stream().mapToLong(Long::longValue).sum();
    }

    /** Whether the row of {@code table} with this id exists on {@code shardId}. */
    static boolean hasRow(ShardDatabases dbs, String shardId, String table, Object id) {
        try (Connection c = dbs.connect(shardId);
             PreparedStatement ps = c.prepareStatement("select count(*) from " + table + " where id = ?")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) == 1;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The ids of every row of {@code table} on {@code shardId}, read in one statement. */
    static Set<Long> ids(ShardDatabases dbs, String shardId, String table) {
        Set<Long> ids = new HashSet<>();
        try (Connection c = dbs.connect(shardId); PreparedStatement ps = c.prepareStatement("select id from " + table);
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return ids;
    }

    /**
     * Sets the ownership row of virtual shard {@code bucket} on {@code shard} to {@code state} directly, as a step of a
     * move would, without the move; fails unless the row exists.
     */
    static void setOwnershipState(ShardDatabases dbs, ShardId shard, int bucket, String state) {
        try (Connection c = dbs.connect(shard.name());
             PreparedStatement ps = c.prepareStatement("update as_ownership set state = ? where bucket = ?")) {
            ps.setString(1, state);
            ps.setInt(2, bucket);
            if (ps.executeUpdate() != 1) {
                throw new IllegalStateException("Shard '" + shard + "' has no ownership row for virtual shard "
                        + bucket);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long count(ShardDatabases dbs, String shardId, String sql) {
        try (Connection c = dbs.connect(shardId); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
