package org.atomicshards.benchmarks.support;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.atomicshards.benchmarks.model.Customer;
import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;

/**
 * Builds the Atomic Shards factory the benchmarks' own side runs on: shard {@code s<i>} is database {@code i} of an
 * {@link ShardDatabases} set (reached through {@link ShardDatabases#delayedUrl}, so a set's statement delay applies), the shard
 * directory lives in an in-memory H2 catalog, pools have the size every other side's
 * pools have, and the schema is the one the set created (no schema action).
 */
public final class AtomicShardsFactories {

    private static final Logger HIBERNATE_LOG = Logger.getLogger("org.hibernate");
    private static final AtomicInteger CATALOGS = new AtomicInteger();

    private AtomicShardsFactories() {
    }

    /** Shard id of database {@code index}. */
    public static ShardId shardId(int index) {
        return ShardId.of("s" + index);
    }

    /**
     * @param customize further settings (e.g. fan-out settings); {@code UnaryOperator.identity()} for none
     */
    public static ShardedSessionFactory build(ShardDatabases shards, Policy customerPolicy,
                                              UnaryOperator<ShardedSessionFactoryBuilder> customize) {
        ShardedSessionFactoryBuilder builder = configure(shards, customerPolicy)
                .poolSize(H2Shards.POOL_SIZE)
                .maxTotalConnections(H2Shards.POOL_SIZE * shards.count());
        return customize.apply(builder).build();
    }

    /**
     * As {@link #build} but with the library's defaults for the pools (sizes, bound on total connections) and the
     * fan-out (parallelism, access): what a user who tunes nothing gets at {@code shards.count()} shards.
     */
    public static ShardedSessionFactory buildWithDefaults(ShardDatabases shards, Policy customerPolicy) {
        return configure(shards, customerPolicy).build();
    }

    /** As {@link #buildWithDefaults(ShardDatabases, Policy)} plus {@code properties} (settings by name). */
    public static ShardedSessionFactory buildWithDefaults(ShardDatabases shards, Policy customerPolicy,
                                                          Map<String, ?> properties) {
        ShardedSessionFactoryBuilder builder = configure(shards, customerPolicy);
        properties.forEach(builder::property);
        return builder.build();
    }

    /**
     * The builder {@link #build} starts from: the shards of the set, the benchmark model with {@code customerPolicy},
     * a new in-memory H2 catalog (a caller may name another with {@link ShardedSessionFactoryBuilder#catalog}), no
     * schema action, the library's pool defaults.
     */
    public static ShardedSessionFactoryBuilder configure(ShardDatabases shards, Policy customerPolicy) {
        HIBERNATE_LOG.setLevel(Level.WARNING);
        ShardedSessionFactoryBuilder builder = AtomicShards.configure();
        for (int i = 0; i < shards.count(); i++) {
            builder.shard(shardId(i).name(), shards.delayedUrl(i), shards.user(), shards.password());
        }
        return builder.catalog("jdbc:h2:mem:bench_catalog_" + CATALOGS.incrementAndGet() + ";DB_CLOSE_DELAY=-1")
                .policy(Customer.class, customerPolicy)
                .annotatedClasses(Customer.class, PurchaseOrder.class)
                .schemaAction("none");
    }

    /** Where {@code factory} routes each customer key, as a shard index of the set it runs on. */
    public static KeyPlacement placement(ShardedSessionFactory factory) {
        Map<ShardId, Integer> indexes = new HashMap<>();
        for (int i = 0; i < factory.shards().size(); i++) {
            indexes.put(shardId(i), i);
        }
        return key -> {
            ShardId shard = factory.shardFor(Customer.class, key).orElseThrow(() -> new IllegalStateException(
                    "Atomic Shards has no shard for customer " + key + " (a lookup policy without a placement?)"));
            return indexes.get(shard);
        };
    }
}
