package org.atomicshards.hibernate.internal.guard;

import java.sql.PreparedStatement;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

import org.atomicshards.hibernate.internal.reshard.fence.WriteFence;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.sql.exec.internal.StandardJdbcMutationExecutor;
import org.hibernate.sql.exec.spi.ExecutionContext;
import org.hibernate.sql.exec.spi.JdbcMutationExecutor;
import org.hibernate.sql.exec.spi.JdbcOperationQueryMutation;
import org.hibernate.sql.exec.spi.JdbcParameterBindings;

/**
 * Runs every statement of a bulk HQL or JPQL mutation and of native SQL ({@code executeUpdate}) after the session's
 * write fence ({@link WriteFence#beforeBulkWrite}): Hibernate runs those, and only those, through the
 * {@link JdbcMutationExecutor}, while an entity's own insert, update and delete pass the {@link ShardGuard}. Before it
 * is {@linkplain #activate activated} (during boot) it fences nothing. Thread-safe.
 */
public final class BulkWriteGuard implements JdbcMutationExecutor {

    private volatile WriteFence writeFence;
    private volatile Consumer<SharedSessionContractImplementor> observer = session -> { };

    /** Arms the guard with the factory's write fence. */
    public void activate(WriteFence fence) {
        this.writeFence = fence;
    }

    /** Tells {@code writes} of every bulk or native write, with its session, before it runs. */
    public void observeWith(Consumer<SharedSessionContractImplementor> writes) {
        this.observer = writes;
    }

    @Override
    public int execute(JdbcOperationQueryMutation jdbcMutation, JdbcParameterBindings jdbcParameterBindings,
                       Function<String, PreparedStatement> statementCreator,
                       BiConsumer<Integer, PreparedStatement> expectationCheck, ExecutionContext executionContext) {
        WriteFence fence = writeFence;
        if (fence != null) {
            fence.beforeBulkWrite(executionContext.getSession());
        }
        observer.accept(executionContext.getSession());
        return StandardJdbcMutationExecutor.INSTANCE.execute(jdbcMutation, jdbcParameterBindings, statementCreator,
                expectationCheck, executionContext);
    }
}
