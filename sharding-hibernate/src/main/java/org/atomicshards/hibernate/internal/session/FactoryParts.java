package org.atomicshards.hibernate.internal.session;

import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.Supplier;

import org.atomicshards.hibernate.KeyGeneration;
import org.atomicshards.hibernate.ShardIndexes;
import org.atomicshards.hibernate.admin.ShardAdmin;
import org.atomicshards.hibernate.internal.config.ShardingConfig;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.id.KeyGenerators;
import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.metrics.Traffic;
import org.atomicshards.hibernate.internal.replica.ReplicaReads;
import org.atomicshards.hibernate.internal.reshard.fence.UnitOfWorkRetry;
import org.atomicshards.hibernate.internal.reshard.fence.WriteFence;
import org.atomicshards.hibernate.internal.routing.IdRoute;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.schema.PerShardSchema;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * What the boot built for the facade of one sharded factory.
 *
 * @param name                   the factory's name, in thread names
 * @param idRoutes               the route of every mapped unit entity type, for {@code find}
 * @param declaredKeyGenerations by unit root, the key generation its id generator declares
 * @param admin                  the topology's administrative operations (built after the facade)
 * @param deadlines              the transaction timeout's watchdog over the running units of work
 * @param fence                  the ownership fence every write passes on the shards (online resharding)
 * @param unitRetry              re-runs units of work the fence turned away
 * @param topologyLock           read-locked by reference-data writes, write-locked while a shard is added
 * @param metrics                the factory's meters
 * @param traffic                the traffic counts per virtual shard, for the hot-spot report
 * @param indexes                the look-ups through the factory's indexes
 */
public record FactoryParts(String name, SessionFactoryImplementor sessionFactory, ShardingConfig config,
                           ShardPools pools, CachedShardDirectory directory, ShardRouterImpl router,
                           KeyGenerators keyGenerators, PerShardSchema schema, Map<Class<?>, IdRoute> idRoutes,
                           Map<Class<?>, KeyGeneration> declaredKeyGenerations,
                           Supplier<ShardAdmin> admin, ReadWriteLock topologyLock,
                           UnitDeadlines deadlines, WriteFence fence, UnitOfWorkRetry unitRetry,
                           ShardMetrics metrics, Traffic traffic, ShardIndexes indexes,
                           ReplicaReads replicas) {
}
