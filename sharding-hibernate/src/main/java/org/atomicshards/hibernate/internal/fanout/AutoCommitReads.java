package org.atomicshards.hibernate.internal.fanout;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.atomicshards.hibernate.ShardId;

/**
 * Which shards run a fan-out's shard statement in auto-commit when it is read at once and its rows fit in one fetch
 * (paging pushed down within the fetch size, or one aggregate row): one round trip per shard instead of two (the
 * statement, then the commit of the transaction the driver opened for it, since the pools' connections do not
 * auto-commit). Larger results keep the transaction: in auto-commit PostgreSQL's driver reads every row before the
 * first is returned, where inside a transaction it fetches them in batches of the fetch size. Only where switching
 * auto-commit costs no round trip of its own: PostgreSQL's driver changes it locally and starts no transaction until
 * the next statement, so the pool setting it back is free too. MariaDB's driver sends a statement for each switch, and
 * H2 runs in the JVM, where a commit costs no round trip: there the commit stays.
 *
 * <p>Nothing is lost by leaving the transaction out: one statement reads one snapshot either way, and the resharding
 * check's own statements (the shard's claims before the query, its epoch after it where the query does not select the
 * epoch itself) each took a snapshot of their own inside the transaction too, under PostgreSQL's READ COMMITTED. The statement is one Hibernate generated from a selection
 * query; PostgreSQL's driver makes only the transactions it begins read-only, so it runs without that flag. Decided
 * once per shard, from its connection's driver. Thread-safe.
 */
final class AutoCommitReads {

    private final Map<ShardId, Boolean> byShard = new ConcurrentHashMap<>();

    /**
     * Switches {@code connection} to auto-commit if {@code shard}'s driver does that for free and it does not
     * auto-commit already; returns whether it did (the caller switches it back before the connection is released).
     */
    boolean apply(ShardId shard, Connection connection) throws SQLException {
        Boolean free = byShard.get(shard);
        if (free == null) {
            free = switchesLocally(connection.getMetaData().getDriverName());
            byShard.put(shard, free);
        }
        if (!free || connection.getAutoCommit()) {
            return false;
        }
        connection.setAutoCommit(true);
        return true;
    }

    static boolean switchesLocally(String driverName) {
        return driverName != null && driverName.toLowerCase(Locale.ROOT).startsWith("postgresql");
    }
}
