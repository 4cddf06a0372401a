package org.atomicshards.spring.internal;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.RollbackException;
import org.atomicshards.hibernate.ShardId;
import org.hibernate.Session;
import org.springframework.transaction.TransactionDefinition;

/**
 * The entity manager's transaction. Spring begins it through {@link ShardingJpaDialect} before the shard is
 * known; it is started on the shard's session when the entity manager binds, and commits or rolls back there.
 * A transaction that never bound touched no database: commit and rollback have nothing to do.
 */
final class RoutedTransaction implements EntityTransaction, ShardingJpaDialect.RoutedTransactionData {

    private final RoutingEntityManager owner;
    private boolean active;
    private boolean rollbackOnly;
    private Integer timeout;
    private TransactionDefinition definition;
    private ShardRoutedEntityManager.TransactionStarter starter;
    private Object sessionData;

    RoutedTransaction(RoutingEntityManager owner) {
        this.owner = owner;
    }

    Object beginSpringTransaction(TransactionDefinition springDefinition,
                                  ShardRoutedEntityManager.TransactionStarter springStarter) {
        if (active) {
            throw new IllegalStateException("Transaction already active");
        }
        definition = springDefinition;
        starter = springStarter;
        active = true;
        rollbackOnly = false;
        sessionData = null;
        ShardId scoped = owner.boundSession() == null ? owner.scopedShard() : null;
        if (scoped != null) {
            owner.bind(scoped, "begin a transaction");
        } else {
            startOnBoundSession();
        }
        return this;
    }

    /** Starts the pending transaction on the just-bound session, with the Spring definition if any. */
    void startOnBoundSession() {
        EntityManager session = owner.boundSession();
        if (!active || session == null || session.getTransaction().isActive()) {
            return;
        }
        if (starter != null) {
            try {
                sessionData = starter.begin(session, definition);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new jakarta.persistence.PersistenceException("Could not begin the transaction on shard '"
                        + owner.boundShardOrNull() + "': " + e.getMessage(), e);
            }
        } else {
            if (timeout != null) {
                session.unwrap(Session.class).getTransaction().setTimeout(timeout);
            }
            session.getTransaction().begin();
        }
        if (rollbackOnly) {
            session.getTransaction().setRollbackOnly();
        }
    }

    void markRollbackOnly() {
        if (active) {
            setRollbackOnly();
        }
    }

    @Override
    public Object sessionData() {
        return sessionData;
    }

    @Override
    public void begin() {
        if (active) {
            throw new IllegalStateException("Transaction already active");
        }
        definition = null;
        starter = null;
        active = true;
        rollbackOnly = false;
        startOnBoundSession();
    }

    @Override
    public void commit() {
        EntityManager session = owner.boundSession();
        if (!active) {
            throw new IllegalStateException("Transaction not active");
        }
        try {
            if (session != null && session.getTransaction().isActive()) {
                session.getTransaction().commit();
            } else if (rollbackOnly) {
                throw new RollbackException("Transaction marked for rollback only");
            }
        } finally {
            active = false;
        }
    }

    @Override
    public void rollback() {
        EntityManager session = owner.boundSession();
        if (!active) {
            throw new IllegalStateException("Transaction not active");
        }
        try {
            if (session != null && session.getTransaction().isActive()) {
                session.getTransaction().rollback();
            }
        } finally {
            active = false;
            rollbackOnly = false;
        }
    }

    @Override
    public void setRollbackOnly() {
        EntityManager session = owner.boundSession();
        if (!active) {
            throw new IllegalStateException("Transaction not active");
        }
        rollbackOnly = true;
        if (session != null && session.getTransaction().isActive()) {
            session.getTransaction().setRollbackOnly();
        }
    }

    @Override
    public boolean getRollbackOnly() {
        EntityManager session = owner.boundSession();
        if (!active) {
            throw new IllegalStateException("Transaction not active");
        }
        return session != null && session.getTransaction().isActive()
                ? session.getTransaction().getRollbackOnly() : rollbackOnly;
    }

    @Override
    public boolean isActive() {
        return active;
    }

    /** Whether the active transaction may write (Spring's definition is not read-only, or there is none). */
    boolean isReadWrite() {
        return active && (definition == null || !definition.isReadOnly());
    }

    @Override
    public void setTimeout(Integer seconds) {
        EntityManager session = owner.boundSession();
        timeout = seconds;
        if (session != null) {
            session.getTransaction().setTimeout(seconds);
        }
    }

    @Override
    public Integer getTimeout() {
        EntityManager session = owner.boundSession();
        return session != null ? session.getTransaction().getTimeout() : timeout;
    }
}
