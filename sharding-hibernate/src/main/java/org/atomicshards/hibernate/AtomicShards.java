package org.atomicshards.hibernate;

import jakarta.persistence.EntityManagerFactory;
import org.atomicshards.hibernate.internal.boot.ShardingRuntime;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * Entry point. Either configure a factory in code:
 *
 * <pre>{@code
 * ShardedSessionFactory shards = AtomicShards.configure()
 *         .shard("s0", "jdbc:h2:mem:s0").shard("s1", "jdbc:h2:mem:s1")
 *         .virtualShards(1024)
 *         .policy(Customer.class, Policies.hash())
 *         .annotatedClasses(Customer.class, Order.class, Country.class)
 *         .schemaAction("create")
 *         .build();
 * }</pre>
 *
 * or bootstrap JPA as usual ({@code persistence.xml}, Spring) with the {@link ShardingSettings} properties, and
 * wrap the resulting factory with {@link #from(EntityManagerFactory)}.
 */
public final class AtomicShards {

    private AtomicShards() {
    }

    /** A new builder for a sharded session factory (native Hibernate bootstrap). */
    public static ShardedSessionFactoryBuilder configure() {
        return new ShardedSessionFactoryBuilder();
    }

    /**
     * The sharded factory behind a JPA {@link EntityManagerFactory} (or Hibernate {@code SessionFactory}) that was
     * bootstrapped with the {@code atomicshards.*} settings.
     *
     * @throws AtomicShardsException if the factory was not bootstrapped with Atomic Shards
     */
    public static ShardedSessionFactory from(EntityManagerFactory factory) {
        SessionFactoryImplementor sessionFactory = factory.unwrap(SessionFactoryImplementor.class);
        MultiTenantConnectionProvider<?> provider =
                sessionFactory.getServiceRegistry().getService(MultiTenantConnectionProvider.class);
        if (provider == null || !provider.isUnwrappableAs(ShardingRuntime.class)) {
            throw new AtomicShardsException("This EntityManagerFactory is not sharded: bootstrap it with the setting "
                    + ShardingSettings.SHARDS + " (and the per-shard URLs) so that Atomic Shards installs itself");
        }
        return provider.unwrap(ShardingRuntime.class).facade();
    }
}
