package org.atomicshards.spring.internal;

import java.sql.SQLException;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import org.atomicshards.hibernate.AtomicShardsException;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.datasource.ConnectionHandle;
import org.springframework.orm.jpa.vendor.HibernateJpaDialect;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionException;

/**
 * Spring's Hibernate dialect for sharded entity managers: a transaction on a {@link ShardRoutedEntityManager} that
 * is not bound to a shard yet is started on the shard's session when it binds (with the same read-only, timeout and
 * isolation handling as {@link HibernateJpaDialect}); a transaction that never binds touches no database.
 */
public final class ShardingJpaDialect extends HibernateJpaDialect {

    private static final long serialVersionUID = 1L;

    @Override
    public Object beginTransaction(EntityManager entityManager, TransactionDefinition definition)
            throws PersistenceException, SQLException, TransactionException {
        if (entityManager instanceof ShardRoutedEntityManager routed) {
            return routed.beginTransaction(definition, super::beginTransaction);
        }
        return super.beginTransaction(entityManager, definition);
    }

    @Override
    public Object prepareTransaction(EntityManager entityManager, boolean readOnly, String name)
            throws PersistenceException {
        if (entityManager instanceof ShardRoutedEntityManager routed) {
            return routed.boundShard() == null ? null
                    : super.prepareTransaction(routed.unwrap(org.hibernate.Session.class), readOnly, name);
        }
        return super.prepareTransaction(entityManager, readOnly, name);
    }

    @Override
    public void cleanupTransaction(Object transactionData) {
        if (transactionData instanceof RoutedTransactionData routed) {
            Object sessionData = routed.sessionData();
            if (sessionData != null) {
                super.cleanupTransaction(sessionData);
            }
            return;
        }
        super.cleanupTransaction(transactionData);
    }

    @Override
    public ConnectionHandle getJdbcConnection(EntityManager entityManager, boolean readOnly)
            throws PersistenceException, SQLException {
        if (entityManager instanceof ShardRoutedEntityManager routed) {
            // A transaction manager with a DataSource asks for the connection at begin; an unbound one has none yet.
            return routed.boundShard() == null ? null
                    : super.getJdbcConnection(routed.unwrap(org.hibernate.Session.class), readOnly);
        }
        return super.getJdbcConnection(entityManager, readOnly);
    }

    @Override
    public DataAccessException translateExceptionIfPossible(RuntimeException ex) {
        if (ex instanceof AtomicShardsException) {
            return null; // our exceptions name the shard and the fix; they reach the caller as themselves
        }
        return super.translateExceptionIfPossible(ex);
    }

    /** The transaction data of a routed entity manager: the shard session's data, once bound. */
    interface RoutedTransactionData {
        Object sessionData();
    }
}
