package org.atomicshards.hibernate.internal.fanout;

import java.util.function.Function;

import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.fanout.RuntimeFactories.PolicyKind;
import org.atomicshards.testing.DatabaseKind;
import org.hibernate.Session;
import org.hibernate.SessionFactory;

/**
 * The oracle on a real database server: one database of the given kind and collation holding every row of the data
 * set, with the schema the runtime creates (so column types match the shards'), queried through plain Hibernate
 * sessions.
 */
final class RuntimeOracleDatabase implements OracleRunner.OracleDatabase, AutoCloseable {

    private final RuntimeFactories.Sharded single;
    private final TestDataSet data;

    /**
     * @param createOptions the {@code create database} options, the same as the shards' (e.g. the collation)
     */
    RuntimeOracleDatabase(DatabaseKind kind, String createOptions, TestDataSet data) {
        this.data = data;
        this.single = RuntimeFactories.build(kind, PolicyKind.HASH, 1, data, createOptions,
                FanOutSettings.defaults());
    }

    TestDataSet data() {
        return data;
    }

    @Override
    public SessionFactory sessionFactory() {
        return single.factory().sessionFactory();
    }

    @Override
    public <T> T onOracle(Function<Session, T> work) {
        ShardId only = single.factory().shards().get(0);
        try (Session session = single.factory().openReadOnlySession(only)) {
            return work.apply(session);
        }
    }

    @Override
    public long keySpace() {
        return data.keySpace;
    }

    @Override
    public void close() {
        single.close();
    }
}
