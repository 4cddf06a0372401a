package org.atomicshards.hibernate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.atomicshards.hibernate.indexmodel.Account;
import org.atomicshards.hibernate.indexmodel.Device;
import org.atomicshards.hibernate.internal.index.IndexValues;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;

/** Factories over the index model, and what the shards really hold, read over plain JDBC. */
final class IndexFixtures {

    static final int VIRTUAL_SHARDS = 16;
    static final String EMAIL = Account.class.getName() + ".email";
    static final String CITY = Account.class.getName() + ".city";

    /** One account row as a shard stores it. */
    record AccountRow(String shard, long id, String email, String city) {
    }

    /** One index entry as a shard stores it. */
    record EntryRow(String shard, String digest, String unitKey) {
    }

    private IndexFixtures() {
    }

    /** A builder over {@code dbs} with the index model, the schema created on every shard and a new catalog. */
    static ShardedSessionFactoryBuilder builder(ShardDatabases dbs, long claimTimeoutMillis) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                .annotatedClasses(Account.class, Device.class, org.atomicshards.hibernate.indexmodel.Profile.class)
                .virtualShards(VIRTUAL_SHARDS)
                .connectionTimeoutMillis(10_000)
                .schemaAction("create")
                .property(ShardingSettings.RESHARDING_AUTO_RESUME, "false")
                .property(ShardingSettings.INDEX_CLAIM_TIMEOUT, claimTimeoutMillis);
        dbs.settings().forEach(builder::property);
        return builder.catalog(dbs.newCatalogUrl());
    }

    /** The first key from {@code from} up that {@code factory} routes to {@code shard}. */
    static long keyOn(ShardedSessionFactory factory, ShardId shard, long from) {
        for (long key = from; ; key++) {
            if (factory.shardFor(Account.class, key).orElseThrow().equals(shard)) {
                return key;
            }
        }
    }

    /** The shard the index entry of {@code value} lives on. */
    static ShardId entryShard(ShardedSessionFactory factory, Object value) {
        return factory.directory().shardOf(IndexValues.virtualShard(IndexValues.digest(value),
                factory.directory().virtualShards()));
    }

    /** Every account row of every shard. */
    static List<AccountRow> accounts(ShardDatabases dbs) {
        List<AccountRow> rows = new ArrayList<>();
        for (ShardDatabase shard : dbs.shards()) {
            try (Connection c = dbs.connect(shard.id());
                 PreparedStatement ps = c.prepareStatement("select id, email, city from ix_account");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new AccountRow(shard.id(), rs.getLong(1), rs.getString(2), rs.getString(3)));
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        return rows;
    }

    /** Every entry of {@code index} on every shard ({@code unique}: in the unique entries' table). */
    static List<EntryRow> entries(ShardDatabases dbs, String index, boolean unique) {
        List<EntryRow> rows = new ArrayList<>();
        String table = unique ? "atomicshards_index_unique" : "atomicshards_index_entry";
        for (ShardDatabase shard : dbs.shards()) {
            try (Connection c = dbs.connect(shard.id());
                 PreparedStatement ps = c.prepareStatement("select value_digest, unit_key from " + table
                         + " where index_name = ?")) {
                ps.setString(1, index);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new EntryRow(shard.id(), rs.getString(1).trim(), rs.getString(2)));
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        return rows;
    }

    /** The entries of {@code value} in {@code index}. */
    static List<EntryRow> entriesOf(ShardDatabases dbs, String index, boolean unique, Object value) {
        String digest = IndexValues.digest(value);
        return entries(dbs, index, unique).stream().filter(entry -> entry.digest().equals(digest)).toList();
    }
}
