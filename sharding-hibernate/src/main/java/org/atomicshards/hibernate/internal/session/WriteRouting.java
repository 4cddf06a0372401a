package org.atomicshards.hibernate.internal.session;

import java.util.Map;
import java.util.Optional;

import org.atomicshards.hibernate.KeyGeneration;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.internal.config.Topology;
import org.atomicshards.hibernate.internal.id.KeyGenerators;
import org.atomicshards.hibernate.internal.reshard.fence.UnitOfWorkRetry;
import org.atomicshards.hibernate.internal.metrics.Traffic;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.Hibernate;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * Routes writes: the shard owning an entity or a key, a generated key for a new root that has none (of the policy's
 * key generation, or the one its id generator declares) and the placement of a new key of a directory policy.
 */
final class WriteRouting {

    private final ShardRouterImpl router;
    private final UnitLookup units;
    private final SessionFactoryImplementor sessionFactory;
    private final Topology topology;
    private final KeyGenerators keyGenerators;
    private final Map<Class<?>, KeyGeneration> declaredKeyGenerations;
    private final UnitsOfWork unitsOfWork;
    private final ReferenceDataReplication replication;
    private final UnitOfWorkRetry unitRetry;
    private final Traffic traffic;

    /**
     * @param declaredKeyGenerations by unit root, the key generation its id generator declares (read at boot)
     * @param traffic                counts the writes routed by key
     */
    WriteRouting(ShardRouterImpl router, UnitLookup units, SessionFactoryImplementor sessionFactory, Topology topology,
                 KeyGenerators keyGenerators, Map<Class<?>, KeyGeneration> declaredKeyGenerations,
                 UnitsOfWork unitsOfWork, ReferenceDataReplication replication, UnitOfWorkRetry unitRetry,
                 Traffic traffic) {
        this.traffic = traffic;
        this.router = router;
        this.units = units;
        this.sessionFactory = sessionFactory;
        this.topology = topology;
        this.keyGenerators = keyGenerators;
        this.declaredKeyGenerations = Map.copyOf(declaredKeyGenerations);
        this.unitsOfWork = unitsOfWork;
        this.replication = replication;
        this.unitRetry = unitRetry;
    }

    /** Persists {@code entity} in the unit of work of its shard; reference data on every shard. */
    void persist(Object entity) {
        Class<?> type = entity.getClass();
        if (router.isReferenceData(type)) {
            replication.replicate(session -> session.merge(entity));
            return;
        }
        String unit = units.unitOf(type).simpleName();
        unitRetry.call(() -> {
            RoutedKey routed = writeRoute(entity, type); // routed afresh on every attempt: the map may have moved on
            return unitsOfWork.run(routed.shard(), unit, () -> "persist " + type.getSimpleName(), routed.mapVersion(),
                    () -> FenceTargets.of(units.unitOf(type), routed), session -> {
                        session.persist(entity);
                        return null;
                    });
        });
    }

    /** The shard {@code entity} is written to; empty for reference data. */
    Optional<ShardId> shardForWrite(Object entity) {
        Class<?> type = Hibernate.getClass(entity);
        if (router.isReferenceData(type)) {
            return Optional.empty();
        }
        return Optional.of(writeRoute(entity, type).shard());
    }

    /** The shard of an existing or new unit: directory policies place a new key (round robin). Counted as a write. */
    ShardId shardForWork(UnitRoutingImpl unit, Object key) {
        return routeForWork(unit, key).shard();
    }

    /** {@link #shardForWork} with the checked key and its virtual shard, for the unit's ownership fence. */
    RoutedKey routeForWork(UnitRoutingImpl unit, Object key) {
        Object checked = unit.checkKey(key);
        int mapVersion = unit.placement().mapVersion();
        ShardId shard = unit.placement().placeNew(checked);
        return written(unit, checked, shard, mapVersion);
    }

    private RoutedKey written(UnitRoutingImpl unit, Object checked, ShardId shard, int mapVersion) {
        RoutedKey routed = new RoutedKey(checked, unit.placement().virtualShardOf(checked), shard, mapVersion);
        traffic.write(unit, checked, routed.virtualShard(), shard);
        return routed;
    }

    /** Places a new key of a directory policy on {@code shard}; an existing key stays where it is. */
    ShardId place(Class<?> unit, Object key, ShardId shard) {
        UnitRoutingImpl routing = units.unitOf(unit);
        topology.shard(shard);
        if (!routing.placement().recordsPlacements()) {
            throw new UnroutableKeyException("Unit " + routing.root().getSimpleName() + " uses the "
                    + routing.policy().selection().name() + " policy, which computes the shard from the key; only "
                    + "units of a policy that records placements (lookup, round_robin) are placed explicitly");
        }
        Object checked = routing.checkKey(key);
        ShardId existing = routing.ownerOf(checked);
        return existing != null ? existing : routing.placement().placeOn(checked, shard);
    }

    /** The shard owning {@code entity}: a new root gets its generated key and a new directory key is placed. */
    private RoutedKey writeRoute(Object entity, Class<?> type) {
        UnitRoutingImpl unit = units.unitOf(type);
        MemberKey memberKey = unit.memberKey(type);
        if (memberKey == null) {
            memberKey = unit.memberKey(sessionFactory.getMappingMetamodel().getEntityDescriptor(type).getMappedClass());
        }
        Object key = memberKey.keyOf(entity);
        boolean isRoot = memberKey.kind() != MemberKey.Kind.ROOT_ASSOCIATION && unit.root().isAssignableFrom(type);
        if (isRoot) {
            if (key == null && memberKey.assignable()) {
                key = keyGenerators.newKey(keyGeneration(unit), memberKey.persister().getRootEntityName(),
                        unit.keyType(), unitsOfWork.currentShard());
                if (key != null) {
                    memberKey.assign(entity, key);
                }
            }
            return routeForWork(unit, key);
        }
        Object checked = unit.checkKey(key);
        int mapVersion = unit.placement().mapVersion();
        ShardId shard = unit.ownerOf(checked);
        if (shard == null) {
            throw new UnroutableKeyException("Cannot persist " + type.getSimpleName() + ": unit "
                    + unit.root().getSimpleName() + " with key " + key + " has no placement in the shard directory."
                    + " Nothing was written. Fix: persist the " + unit.root().getSimpleName() + " first");
        }
        return written(unit, checked, shard, mapVersion);
    }

    /** The policy's key generation, or the one declared by the root's id generator annotation. */
    private KeyGeneration keyGeneration(UnitRoutingImpl unit) {
        if (unit.policy().keyGeneration() != KeyGeneration.APPLICATION) {
            return unit.policy().keyGeneration();
        }
        return declaredKeyGenerations.getOrDefault(unit.root(), KeyGeneration.APPLICATION);
    }
}
