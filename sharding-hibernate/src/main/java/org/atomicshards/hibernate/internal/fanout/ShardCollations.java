package org.atomicshards.hibernate.internal.fanout;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.atomicshards.hibernate.FanOutQueryException;
import org.atomicshards.hibernate.ShardId;
import org.hibernate.SessionFactory;
import org.hibernate.StatelessSession;

/**
 * Reads each shard's default string collation once (on the first fan-out that needs it) and caches it for the
 * life of the engine. Reads the database default, not a column's own collation. Thread-safe.
 */
final class ShardCollations {

    private static final String POSTGRES_15 = "select datcollate, datlocprovider::text, daticulocale"
            + " from pg_database where datname = current_database()";
    private static final String POSTGRES_17 = "select datcollate, datlocprovider::text, datlocale"
            + " from pg_database where datname = current_database()";
    private static final String POSTGRES_OLD = "select datcollate, 'c', null from pg_database"
            + " where datname = current_database()";
    private static final String MARIADB = "select @@collation_database";
    /** MySQL 8 reports each collation's PAD_ATTRIBUTE; MariaDB up to 11 does not (its names say {@code nopad}). */
    private static final String HAS_PAD_ATTRIBUTE = "select count(*) from information_schema.columns"
            + " where table_schema = 'information_schema' and table_name = 'COLLATIONS'"
            + " and column_name = 'PAD_ATTRIBUTE'";
    private static final String PAD_ATTRIBUTE = "select pad_attribute from information_schema.collations"
            + " where collation_name = ?";
    private static final String H2 = "select setting_value from information_schema.settings where setting_name = ?";

    private final SessionFactory factory;
    private final Map<ShardId, StringCollation> cache = new ConcurrentHashMap<>();

    ShardCollations(SessionFactory factory) {
        this.factory = factory;
    }

    /** The shard's collation, read from its database the first time. */
    StringCollation of(ShardId shard) {
        return cache.computeIfAbsent(shard, this::read);
    }

    private StringCollation read(ShardId shard) {
        try (StatelessSession session = factory.withStatelessOptions().tenantIdentifier(shard).readOnly(true)
                .openStatelessSession()) {
            return session.doReturningWork(ShardCollations::read);
        }
        catch (RuntimeException e) {
            throw new FanOutQueryException("Cannot read the string collation of shard " + shard
                    + " (needed to merge string comparisons across shards)", e);
        }
    }

    static StringCollation read(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        String product = meta.getDatabaseProductName();
        String lower = product.toLowerCase(Locale.ROOT);
        if (lower.contains("postgres")) {
            int major = meta.getDatabaseMajorVersion();
            String sql = major >= 17 ? POSTGRES_17 : major >= 15 ? POSTGRES_15 : POSTGRES_OLD;
            try (PreparedStatement statement = connection.prepareStatement(sql);
                 ResultSet rows = statement.executeQuery()) {
                rows.next();
                return StringCollation.postgres(rows.getString(1), rows.getString(2), rows.getString(3));
            }
        }
        if (lower.contains("mariadb") || lower.contains("mysql")) {
            String collation;
            try (PreparedStatement statement = connection.prepareStatement(MARIADB);
                 ResultSet rows = statement.executeQuery()) {
                rows.next();
                collation = rows.getString(1);
            }
            return StringCollation.mariaDb(collation, padSpace(connection, collation));
        }
        if (lower.equals("h2")) {
            try (PreparedStatement statement = connection.prepareStatement(H2)) {
                statement.setString(1, "COLLATION");
                try (ResultSet rows = statement.executeQuery()) {
                    return StringCollation.h2(rows.next() ? rows.getString(1) : null);
                }
            }
        }
        return StringCollation.unknown(product);
    }

    /** The collation's PAD_ATTRIBUTE where the server reports it ({@code PAD SPACE} or {@code NO PAD}), else null. */
    private static Boolean padSpace(Connection connection, String collation) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(HAS_PAD_ATTRIBUTE);
             ResultSet rows = statement.executeQuery()) {
            if (!rows.next() || rows.getInt(1) == 0) {
                return null;
            }
        }
        try (PreparedStatement statement = connection.prepareStatement(PAD_ATTRIBUTE)) {
            statement.setString(1, collation);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() && rows.getString(1) != null
                        ? rows.getString(1).trim().equalsIgnoreCase("PAD SPACE") : null;
            }
        }
    }
}
