package org.atomicshards.hibernate.internal.fanout;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.KeyRange;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;

/**
 * Real sharded factories (the runtime's {@link AtomicShards} over fresh databases) holding the oracle's data set,
 * each row on the shard the factory's policy assigns its key to.
 */
final class RuntimeFactories {

    /** The policies the oracle runs under. */
    enum PolicyKind {
        HASH, MODULO, RANGE, CONSISTENT_HASH;

        Policy policy(long keySpace, int virtualShards) {
            switch (this) {
                case HASH:
                    return Policies.hash();
                case MODULO:
                    return Policies.modulo();
                case CONSISTENT_HASH:
                    return Policies.consistentHash();
                default:
                    List<KeyRange> ranges = new ArrayList<>();
                    long width = (keySpace + virtualShards - 1) / virtualShards;
                    for (int v = 0; v < virtualShards; v++) {
                        ranges.add(KeyRange.of(v * width, (v + 1) * width - 1, v));
                    }
                    return Policies.range(ranges);
            }
        }
    }

    /** A running factory over its own databases; closing it drops them. */
    record Sharded(ShardedSessionFactory factory, ShardDatabases databases) implements AutoCloseable {
        @Override
        public void close() {
            try {
                factory.close();
            }
            finally {
                databases.close();
            }
        }
    }

    private RuntimeFactories() {
    }

    static Sharded build(DatabaseKind kind, PolicyKind policy, int shardCount, TestDataSet data) {
        return build(kind, policy, shardCount, data, "", FanOutSettings.defaults());
    }

    /**
     * A factory over databases created with the given options (see {@link ShardDatabases#create(DatabaseKind, int,
     * String)}) and fan-out settings.
     */
    static Sharded build(DatabaseKind kind, PolicyKind policy, int shardCount, TestDataSet data,
                         String createOptions, FanOutSettings fanOut) {
        int virtualShards = 16;
        ShardDatabases databases = ShardDatabases.create(kind, shardCount, createOptions);
        ShardedSessionFactory factory = null;
        try {
            ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                    .annotatedClasses(Account.class, Purchase.class, Country.class)
                    .virtualShards(virtualShards)
                    .policy(Account.class, policy.policy(data.keySpace, virtualShards))
                    .schemaAction("create")
                    .fanOut(fanOut);
            databases.settings().forEach(builder::property);
            factory = builder.build();
            for (ShardId shard : factory.shards()) {
                ShardedSessionFactory owner = factory;
                try (Connection connection = databases.connect(shard.name())) {
                    data.write(connection, key -> owner.shardFor(Account.class, key).orElseThrow().equals(shard));
                }
            }
            // the rows were written behind the runtime's back: index them as an application builds a new index
            factory.indexes().build(Account.class, "score");
            factory.indexes().build(Purchase.class, "category");
            return new Sharded(factory, databases);
        }
        catch (SQLException | RuntimeException e) {
            if (factory != null) {
                factory.close();
            }
            databases.close();
            throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        }
    }
}
