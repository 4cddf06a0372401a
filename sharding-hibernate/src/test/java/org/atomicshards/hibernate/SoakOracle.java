package org.atomicshards.hibernate;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;

/**
 * The soak test's oracle: one unsharded database of the shards' kind with the schema the runtime creates, holding a
 * copy (same ids, same values) of the stable units, which no writer touches; queried through plain Hibernate
 * sessions. A fan-out over the stable units must return exactly what the same query returns here, at any time.
 */
final class SoakOracle implements AutoCloseable {

    private final ShardDatabases database;
    private final ShardedSessionFactory single;

    /** @param createOptions the {@code create database} options, the same as the shards' (e.g. the collation) */
    SoakOracle(DatabaseKind kind, String createOptions, int virtualShards) {
        database = ShardDatabases.create(kind, 1, createOptions);
        ShardedSessionFactory factory = null;
        try {
            factory = Fixtures.builder(database, virtualShards).build();
        } finally {
            if (factory == null) {
                database.close();
            }
        }
        single = factory;
    }

    /** Copies every row of the units with keys in {@code [from, to]} from these shard databases of {@code source}. */
    void load(ShardDatabases source, List<ShardDatabase> databases, long from, long to) {
        try (Connection target = database.connect(only())) {
            for (SoakTable table : SoakTable.values()) {
                for (ShardDatabase shard : databases) {
                    try (Connection c = source.connect(shard.id())) {
                        table.insert(target, table.read(c, from, to));
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot copy the stable units into the oracle", e);
        }
    }

    /** The stable units as the oracle holds them, by key. */
    Map<Long, SoakUnit> units() {
        List<SoakTable.Row> rows = new ArrayList<>();
        try (Connection c = database.connect(only())) {
            for (SoakTable table : SoakTable.values()) {
                rows.addAll(table.readAll(c));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the oracle", e);
        }
        Map<Long, SoakUnit> units = new TreeMap<>();
        rows.stream().collect(Collectors.groupingBy(SoakTable.Row::unitKey))
                .forEach((key, ofUnit) -> units.put(key, SoakUnit.of(key, ofUnit)));
        return units;
    }

    /** The query's normalized result on the oracle. */
    List<Object> answer(SoakQuery query) {
        try (Session session = single.openReadOnlySession(ShardId.of(only()))) {
            return query.on(session);
        }
    }

    private String only() {
        return database.shards().get(0).id();
    }

    @Override
    public void close() {
        try {
            single.close();
        } finally {
            database.close();
        }
    }
}
