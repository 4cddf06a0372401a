package org.atomicshards.hibernate.internal.guard;

import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.sql.exec.internal.JdbcSelectExecutorStandardImpl;
import org.hibernate.sql.exec.spi.ExecutionContext;
import org.hibernate.sql.exec.spi.JdbcParameterBindings;
import org.hibernate.sql.exec.spi.JdbcSelect;
import org.hibernate.sql.exec.spi.JdbcSelectExecutor;
import org.hibernate.sql.results.spi.ResultsConsumer;
import org.hibernate.sql.results.spi.RowTransformer;

/**
 * Runs every select Hibernate makes (queries in HQL, Criteria and native SQL, and loads) with Hibernate's own executor,
 * then lets the {@link Confirmation} check the session's shard still holds what the session was opened for: a release
 * deletes a unit's rows and its claim in one transaction, so a claim found after the select means its rows were
 * there when the select read. Before it is {@linkplain #activate activated} (during boot) it confirms nothing.
 * Thread-safe.
 */
public final class QueryReadGuard implements JdbcSelectExecutor {

    /** What is asked after each select. */
    public interface Confirmation {

        /**
         * Called after a select ran in {@code session}.
         *
         * @throws org.atomicshards.hibernate.ShardMovingException if the session's shard gave its unit away
         */
        void afterSelect(SharedSessionContractImplementor session);
    }

    private volatile Confirmation confirmation;

    public void activate(Confirmation afterSelect) {
        this.confirmation = afterSelect;
    }

    @Override
    public <T, R> T executeQuery(JdbcSelect select, JdbcParameterBindings bindings, ExecutionContext context,
                                 RowTransformer<R> rowTransformer, Class<R> domainResultType,
                                 StatementCreator statementCreator, ResultsConsumer<T, R> resultsConsumer) {
        T result = JdbcSelectExecutorStandardImpl.INSTANCE.executeQuery(select, bindings, context, rowTransformer,
                domainResultType, statementCreator, resultsConsumer);
        confirm(context);
        return result;
    }

    @Override
    public <T, R> T executeQuery(JdbcSelect select, JdbcParameterBindings bindings, ExecutionContext context,
                                 RowTransformer<R> rowTransformer, Class<R> domainResultType, int resultCountEstimate,
                                 StatementCreator statementCreator, ResultsConsumer<T, R> resultsConsumer) {
        T result = JdbcSelectExecutorStandardImpl.INSTANCE.executeQuery(select, bindings, context, rowTransformer,
                domainResultType, resultCountEstimate, statementCreator, resultsConsumer);
        confirm(context);
        return result;
    }

    private void confirm(ExecutionContext context) {
        Confirmation current = confirmation;
        if (current != null) {
            current.afterSelect(context.getSession());
        }
    }
}
