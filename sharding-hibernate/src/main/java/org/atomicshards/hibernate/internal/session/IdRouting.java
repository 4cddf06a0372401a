package org.atomicshards.hibernate.internal.session;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.atomicshards.hibernate.Combine;
import org.atomicshards.hibernate.MissingShardKeyException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.fence.FenceTarget;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.fence.UnitOfWorkRetry;
import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.metrics.Traffic;
import org.atomicshards.hibernate.internal.routing.IdRoute;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.hibernate.Session;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

/**
 * Routes {@code find} by id through the route each entity type got at boot ({@link IdRoute}): to the shard the id
 * names, or by asking the shards when it names none; reference data is read on any one shard.
 */
final class IdRouting {

    private static final IdRoute UNKNOWN = new IdRoute(IdRoute.Kind.ASK, null);

    private final ShardRouterImpl router;
    private final UnitLookup units;
    private final CachedShardDirectory directory;
    private final Supplier<List<ShardId>> shards;
    private final UnitsOfWork unitsOfWork;
    private final ShardProbe probe;
    private final ClassValue<IdRoute> routes;
    private final OwnershipFence fence;
    private final UnitOfWorkRetry unitRetry;
    private final ShardMetrics metrics;
    private final Traffic traffic;
    private SessionReadFence reads;

    /**
     * @param routes  the route of every mapped unit entity type, decided at boot
     * @param metrics counts the finds that had to ask the shards
     * @param traffic counts the finds routed by key
     */
    IdRouting(ShardRouterImpl router, UnitLookup units, CachedShardDirectory directory, Supplier<List<ShardId>> shards,
              UnitsOfWork unitsOfWork, ShardProbe probe, Map<Class<?>, IdRoute> routes, OwnershipFence fence,
              UnitOfWorkRetry unitRetry, ShardMetrics metrics, Traffic traffic) {
        this.metrics = metrics;
        this.traffic = traffic;
        this.router = router;
        this.units = units;
        this.directory = directory;
        this.shards = shards;
        this.unitsOfWork = unitsOfWork;
        this.probe = probe;
        this.fence = fence;
        this.unitRetry = unitRetry;
        Map<Class<?>, IdRoute> byType = Map.copyOf(routes);
        this.routes = new ClassValue<>() {
            @Override
            protected IdRoute computeValue(Class<?> type) {
                for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                    IdRoute route = byType.get(c);
                    if (route != null) {
                        return route;
                    }
                }
                return UNKNOWN;
            }
        };
    }

    /** The route {@code type}'s ids take, decided at boot ({@code ASK} for a type with none). */
    IdRoute routeOf(Class<?> type) {
        return routes.get(type);
    }

    /** Lets {@link #find} confirm its own reads, before and after, instead of the sessions' read fence. */
    void confirmingWith(SessionReadFence reads) {
        this.reads = reads;
    }

    <T> T find(Class<T> type, Object id) {
        if (id == null) {
            throw new MissingShardKeyException("Cannot find " + type.getSimpleName() + " by a null id");
        }
        if (router.isReferenceData(type)) {
            Session current = unitsOfWork.currentSession();
            if (current != null) {
                return current.find(type, id);
            }
            return unitsOfWork.readOnShard(shards.get().get(0), session -> session.find(type, id));
        }
        UnitRoutingImpl unit = units.unitOf(type);
        IdRoute route = routes.get(type);
        int mapVersion = directory.version(); // before routing: the ring fence trusts a router at least this new
        ShardId shard = route.shardOf(unit, id, directory);
        if (shard == null && route.kind() != IdRoute.Kind.ASK) {
            return null; // a directory policy never placed this key: no shard holds it
        }
        if (shard != null) {
            FenceTarget target = FenceTargets.ofId(route, unit, id, mapVersion);
            if (route.kind() == IdRoute.Kind.KEY) {
                traffic.read(unit, id, target == null ? SelectionPolicy.NO_VIRTUAL_SHARD : target.bucket(), shard);
            }
            if (unitsOfWork.currentSession() != null) {
                return unitsOfWork.run(shard, unit.simpleName(), () -> "find " + type.getSimpleName() + "#" + id,
                        session -> session.find(type, id));
            }
            int[] attempts = {0};
            return unitRetry.call(() -> {
                // a retry routes afresh: the fence turned the read away because the map has moved on
                boolean first = attempts[0]++ == 0;
                int version = first ? mapVersion : directory.version();
                ShardId owner = first ? shard : route.shardOf(unit, id, directory);
                // a unit moved alone (moveUnit) changes its virtual shard too
                FenceTarget fenced = first ? target : FenceTargets.ofId(route, unit, id, version);
                if (fenced != null) {
                    fence.ready(owner);
                }
                return unitsOfWork.readOnShard(owner, session -> reads.confirmedByCaller(
                        (SharedSessionContractImplementor) session, () -> {
                            // before: a shard the unit is arriving at (INCOMING) may not have its rows yet; a promotion
                            // makes them live and the claim OWNED in one transaction, so a claim seen before the read
                            // covers it
                            fence.confirmRead(session, owner, fenced);
                            T entity = session.find(type, id);
                            // after: a stale map read a shard that gave it away
                            fence.confirmRead(session, owner, fenced);
                            return entity;
                        }));
            });
        }
        metrics.idRoutingProbe(type.getSimpleName());
        List<T> found = probe.ask(unit, session -> session.find(type, id), Combine.FIRST);
        return found.isEmpty() ? null : found.get(0);
    }

    Set<ShardId> shardsForId(Class<?> type, Object id) {
        if (id == null) {
            throw new MissingShardKeyException("Cannot route " + type.getSimpleName() + " by a null id");
        }
        if (router.isReferenceData(type)) {
            return Set.copyOf(shards.get());
        }
        UnitRoutingImpl unit = units.unitOf(type);
        IdRoute route = routes.get(type);
        ShardId shard = route.shardOf(unit, id, directory);
        if (shard != null) {
            return Set.of(shard);
        }
        return route.kind() != IdRoute.Kind.ASK ? Set.of() : Set.copyOf(directory.dataShards());
    }
}
