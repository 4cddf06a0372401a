package org.atomicshards.spring.internal;

import jakarta.persistence.EntityManager;
import org.atomicshards.hibernate.ShardId;
import org.springframework.transaction.TransactionDefinition;

/**
 * The entity manager Spring gets from the sharded {@code EntityManagerFactory}: bound to one shard's Hibernate
 * session once it knows the shard (from the scope it was created in, or from the first key it is given), running
 * queries that name no key across all shards until then. These extra methods are for {@link ShardingJpaDialect}.
 */
public interface ShardRoutedEntityManager extends EntityManager {

    /** The shard this entity manager is bound to, or null while it is not bound. */
    ShardId boundShard();

    /**
     * Starts a Spring-managed transaction: at once on the bound (or scoped) shard, otherwise when the entity manager
     * binds. Returns the transaction data {@link ShardingJpaDialect#cleanupTransaction} receives.
     */
    Object beginTransaction(TransactionDefinition definition, TransactionStarter starter);

    /** Starts a transaction on a shard's real session, as Spring's Hibernate dialect does. */
    @FunctionalInterface
    interface TransactionStarter {
        Object begin(EntityManager session, TransactionDefinition definition) throws Exception;
    }
}
