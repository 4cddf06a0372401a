package org.atomicshards.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * N freshly created, empty shard databases of one {@link DatabaseKind}, plus an embedded H2 catalog database, all
 * with a random suffix so that parallel builds never collide. {@link #close()} drops them.
 *
 * <pre>{@code
 * try (ShardDatabases dbs = ShardDatabases.create(DatabaseKind.POSTGRESQL, 4)) {
 *     Map<String, Object> settings = dbs.settings();       // atomicshards.shards, .shard.s0.url, ..., catalog
 *     // AtomicShards.configure()...property(k, v) for each, or pass them to JPA / Spring
 * }
 * }</pre>
 */
public final class ShardDatabases implements AutoCloseable {

    /** Names we generate ourselves: safe to use as SQL identifiers (which cannot be bound as parameters). */
    private static final Pattern SAFE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");

    private final DatabaseKind kind;
    private final String suffix;
    private final List<ShardDatabase> shards;
    private final String catalogUrl;
    private final List<String> extraCatalogs = new java.util.concurrent.CopyOnWriteArrayList<>();

    private ShardDatabases(DatabaseKind kind, String suffix, List<ShardDatabase> shards) {
        this.kind = kind;
        this.suffix = suffix;
        this.shards = List.copyOf(shards);
        this.catalogUrl = "jdbc:h2:mem:catalog_" + suffix + ";DB_CLOSE_DELAY=-1";
    }

    /** Creates {@code count} shard databases named {@code as_<random>_s0 .. s<count-1>}. */
    public static ShardDatabases create(DatabaseKind kind, int count) {
        return create(kind, count, "");
    }

    /**
     * Creates {@code count} shard databases as {@link #create(DatabaseKind, int)} does, each with the given options
     * appended to its {@code create database} statement (a fixed clause written by the test, e.g.
     * {@code template template0 locale_provider icu icu_locale 'und' locale 'C'}); ignored on H2.
     */
    public static ShardDatabases create(DatabaseKind kind, int count, String createOptions) {
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10).toLowerCase(Locale.ROOT);
        List<ShardDatabase> created = new ArrayList<>();
        ShardDatabases databases = null;
        try {
            for (int i = 0; i < count; i++) {
                String id = "s" + i;
                String name = "as_" + suffix + "_" + id;
                created.add(createDatabase(kind, id, name, createOptions));
            }
            databases = new ShardDatabases(kind, suffix, created);
            return databases;
        } finally {
            if (databases == null) {
                new ShardDatabases(kind, suffix, created).close();
            }
        }
    }

    private static ShardDatabase createDatabase(DatabaseKind kind, String id, String name, String createOptions) {
        if (kind == DatabaseKind.H2) {
            return new ShardDatabase(id, "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", null, null);
        }
        execute(kind, ("create database " + safe(name) + " " + createOptions).trim());
        String url = kind.baseUrl() + name;
        return new ShardDatabase(id, url, kind.user(), kind.password());
    }

    public DatabaseKind kind() {
        return kind;
    }

    /** The shard databases, {@code s0} first. */
    public List<ShardDatabase> shards() {
        return shards;
    }

    /** An embedded H2 catalog database for the shard directory, private to this set. */
    public String catalogUrl() {
        return catalogUrl;
    }

    /**
     * A new, empty embedded H2 catalog database (dropped by {@link #close()}), for a test that needs a directory of
     * its own while sharing these shard databases with other tests.
     */
    public String newCatalogUrl() {
        String url = "jdbc:h2:mem:catalog_" + suffix + "_" + extraCatalogs.size() + "_"
                + UUID.randomUUID().toString().substring(0, 8) + ";DB_CLOSE_DELAY=-1";
        extraCatalogs.add(url);
        return url;
    }

    /**
     * The Atomic Shards settings for these databases: {@code atomicshards.shards}, each shard's url / user /
     * password, and {@code atomicshards.catalog.url}.
     */
    public Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("atomicshards.shards", String.join(",", shards.stream().map(ShardDatabase::id).toList()));
        for (ShardDatabase shard : shards) {
            settings.put("atomicshards.shard." + shard.id() + ".url", shard.url());
            if (shard.user() != null) {
                settings.put("atomicshards.shard." + shard.id() + ".user", shard.user());
                settings.put("atomicshards.shard." + shard.id() + ".password", shard.password());
            }
        }
        settings.put("atomicshards.catalog.url", catalogUrl);
        return settings;
    }

    /** Opens a plain JDBC connection to one shard database (for assertions on what was really written). */
    public Connection connect(String shardId) throws SQLException {
        for (ShardDatabase shard : shards) {
            if (shard.id().equals(shardId)) {
                return DriverManager.getConnection(shard.url(), shard.user(), shard.password());
            }
        }
        throw new IllegalArgumentException("No shard " + shardId + " in " + shards);
    }

    /** The row count of each of {@code tables} on one shard database, read with plain JDBC, in the order given. */
    public Map<String, Long> rowCounts(String shardId, List<String> tables) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Connection connection = connect(shardId); Statement statement = connection.createStatement()) {
            for (String table : tables) {
                try (ResultSet rows = statement.executeQuery("select count(*) from " + table)) {
                    rows.next();
                    counts.put(table, rows.getLong(1));
                }
            }
        }
        return counts;
    }

    /** Drops every shard database and the catalog. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (ShardDatabase shard : shards) {
            try {
                drop(shard);
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        List<String> catalogs = new ArrayList<>(extraCatalogs);
        catalogs.add(catalogUrl);
        for (String catalog : catalogs) {
            try (Connection c = DriverManager.getConnection(catalog); Statement s = c.createStatement()) {
                s.execute("shutdown");
            } catch (SQLException ignored) {
                // nothing to shut down
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void drop(ShardDatabase shard) {
        String name = "as_" + suffix + "_" + shard.id();
        if (kind == DatabaseKind.H2) {
            try (Connection c = DriverManager.getConnection(shard.url()); Statement s = c.createStatement()) {
                s.execute("shutdown");
            } catch (SQLException e) {
                throw new IllegalStateException("Cannot drop H2 database " + name, e);
            }
            return;
        }
        execute(kind, kind == DatabaseKind.POSTGRESQL
                ? "drop database if exists " + safe(name) + " with (force)"
                : "drop database if exists " + safe(name));
    }

    private static String safe(String name) {
        if (!SAFE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("Unsafe database name " + name);
        }
        return name;
    }

    private static void execute(DatabaseKind kind, String ddl) {
        try (Connection c = DriverManager.getConnection(kind.adminUrl(), kind.user(), kind.password());
             Statement s = c.createStatement()) {
            s.execute(ddl);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot run '" + ddl + "' on the " + kind + " server at " + kind.adminUrl()
                    + " (is it running? override with -Datomicshards.it.<postgres|mariadb>.url=...): " + e.getMessage(), e);
        }
    }
}
