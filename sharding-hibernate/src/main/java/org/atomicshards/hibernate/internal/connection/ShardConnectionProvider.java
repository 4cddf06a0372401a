package org.atomicshards.hibernate.internal.connection;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.atomicshards.hibernate.ShardId;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.service.UnknownUnwrapTypeException;
import org.hibernate.service.spi.Stoppable;

/**
 * Hibernate's multi-tenant connection provider with a shard as the tenant: each {@link ShardId} gets connections
 * from its own pool. {@link #getAnyConnection()} (used by Hibernate at boot for JDBC metadata) uses the first shard
 * of the topology; all shards of one factory share one dialect.
 */
public final class ShardConnectionProvider implements MultiTenantConnectionProvider<ShardId>, Stoppable {

    private static final long serialVersionUID = 1L;

    private final transient ShardPools pools;
    private final transient ShardId anyShard;
    private final transient Object owner;
    private transient volatile RuntimeException anyConnectionFailure;
    private transient volatile Consumer<ShardId> beforeFirstTransaction = shard -> { };
    private transient volatile BiConsumer<ShardId, Connection> taken = (shard, connection) -> { };

    /**
     * @param pools the shard pools, closed when Hibernate stops this service
     * @param shards the topology's shards; the first answers {@link #getAnyConnection()}
     * @param owner the runtime this provider belongs to, returned by {@link #unwrap} for its class
     */
    public ShardConnectionProvider(ShardPools pools, List<ShardId> shards, Object owner) {
        this.pools = pools;
        this.anyShard = shards.get(0);
        this.owner = owner;
    }

    @Override
    public Connection getAnyConnection() {
        try {
            return pools.connectionAtBoot(anyShard);
        } catch (RuntimeException e) {
            anyConnectionFailure = e;
            throw e;
        }
    }

    /**
     * The last failure of {@link #getAnyConnection()}, if any. Hibernate logs and swallows it at boot and then fails
     * with a less helpful message ("Unable to determine Dialect"); the bootstrap reports this one instead.
     */
    public RuntimeException anyConnectionFailure() {
        return anyConnectionFailure;
    }

    @Override
    public void releaseAnyConnection(Connection connection) throws SQLException {
        connection.close();
    }

    /**
     * Runs {@code preparation} before every connection a session takes, so that what it creates on a shard (the
     * resharding fence's tables) exists before the session's transaction takes its first snapshot: MariaDB refuses
     * to read, in a transaction, a table created after its snapshot. It must be cheap once done for a shard.
     */
    public void prepareShardsWith(Consumer<ShardId> preparation) {
        this.beforeFirstTransaction = preparation;
    }

    /**
     * Hands every connection a session takes to {@code check} before the session uses it (the write leases look at
     * each physical connection once). It must be cheap for a connection it has seen and must not throw.
     */
    public void checkConnectionsWith(BiConsumer<ShardId, Connection> check) {
        this.taken = check;
    }

    @Override
    public Connection getConnection(ShardId shard) {
        beforeFirstTransaction.accept(shard);
        Connection connection = pools.connection(shard);
        taken.accept(shard, connection);
        return connection;
    }

    @Override
    public void releaseConnection(ShardId shard, Connection connection) throws SQLException {
        connection.close();
    }

    /**
     * Aborts a connection of {@code shard} whose state is unknown (its statement was abandoned): evicted from the
     * pool and its socket closed at once. Never throws.
     */
    public void abort(ShardId shard, Connection connection) {
        pools.abort(shard, connection);
    }

    @Override
    public boolean supportsAggressiveRelease() {
        return false;
    }

    @Override
    public boolean isUnwrappableAs(Class<?> type) {
        return type.isInstance(this) || type.isInstance(owner);
    }

    @Override
    public <T> T unwrap(Class<T> type) {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        if (type.isInstance(owner)) {
            return type.cast(owner);
        }
        throw new UnknownUnwrapTypeException(type);
    }

    @Override
    public void stop() {
        pools.close();
    }
}
