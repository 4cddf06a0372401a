package org.atomicshards.hibernate.internal.routing;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.spi.ShardRouter;
import org.atomicshards.hibernate.spi.UnitRouting;

/**
 * The router of a built factory: the shards holding rows (which change with the topology), the unit of every mapped
 * entity type, the reference-data types.
 * Subclasses (inheritance, Hibernate proxies) resolve to their mapped ancestor's unit, cached per class.
 */
public final class ShardRouterImpl implements ShardRouter {

    private final Supplier<List<ShardId>> shards;
    private volatile IndexedShards indexedShards = (type, attribute, values) -> Optional.empty();
    private volatile String indexNames = "";

    /** Answers {@link #shardsForIndexedValues} from the factory's indexes. */
    @FunctionalInterface
    public interface IndexedShards {
        Optional<Set<ShardId>> shardsFor(Class<?> entityType, String attribute, Collection<?> values);
    }
    private final Map<Class<?>, UnitRoutingImpl> unitsByType;
    private final Set<Class<?>> referenceData;
    /** Routes of the classes named at boot, looked up at every write; other classes' are in {@link #entityRoutes}. */
    private final ClassTable<EntityRoute> mappedRoutes;
    private final ClassValue<Optional<UnitRoutingImpl>> resolved = new ClassValue<>() {
        @Override
        protected Optional<UnitRoutingImpl> computeValue(Class<?> type) {
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                UnitRoutingImpl unit = unitsByType.get(c);
                if (unit != null) {
                    return Optional.of(unit);
                }
            }
            return Optional.empty();
        }
    };
    private final ClassValue<EntityRoute> entityRoutes = new ClassValue<>() {
        @Override
        protected EntityRoute computeValue(Class<?> type) {
            return routeOf(type);
        }
    };
    private final ClassValue<Boolean> isReference = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                if (referenceData.contains(c)) {
                    return true;
                }
            }
            return false;
        }
    };

    /** @param shards the shards that hold rows now (the directory's data shards), asked at every call */
    public ShardRouterImpl(Supplier<List<ShardId>> shards, Map<Class<?>, UnitRoutingImpl> unitsByType,
                           Set<Class<?>> referenceData) {
        this.shards = shards;
        this.unitsByType = Map.copyOf(unitsByType);
        this.referenceData = Set.copyOf(referenceData);
        Map<Class<?>, EntityRoute> routes = new HashMap<>();
        this.unitsByType.keySet().forEach(type -> routes.put(type, routeOf(type)));
        this.referenceData.forEach(type -> routes.put(type, routeOf(type)));
        this.mappedRoutes = new ClassTable<>(routes);
    }

    private EntityRoute routeOf(Class<?> type) {
        UnitRoutingImpl unit = resolved.get(type).orElse(null);
        return new EntityRoute(isReferenceData(type), unit, unit == null ? null : unit.memberKey(type));
    }

    @Override
    public List<ShardId> shards() {
        return shards.get();
    }

    @Override
    public Optional<Set<ShardId>> shardsForIndexedValues(Class<?> entityType, String attribute,
                                                         Collection<?> values) {
        return indexedShards.shardsFor(entityType, attribute, values);
    }

    /**
     * Answers {@link #shardsForIndexedValues} with {@code indexedShards} from now on (set once the factory boots).
     *
     * @param indexNames the factory's indexes, comma-separated; empty when it has none
     */
    public void indexedShards(IndexedShards indexedShards, String indexNames) {
        this.indexedShards = indexedShards;
        this.indexNames = indexNames;
    }

    /** The factory's indexes ({@code com.acme.Customer.email, ...}); empty when it has none. */
    public String indexNames() {
        return indexNames;
    }

    @Override
    public Optional<UnitRouting> routingOf(Class<?> entityType) {
        return resolved.get(entityType).map(UnitRouting.class::cast);
    }

    /** The unit of {@code entityType} (root or member), or null. */
    public UnitRoutingImpl unitOf(Class<?> entityType) {
        EntityRoute mapped = mappedRoutes.get(entityType);
        return mapped != null ? mapped.unit() : resolved.get(entityType).orElse(null);
    }

    /**
     * What the guards need of a mapped entity class at every write, in one look-up: whether it is reference data, its
     * unit ({@link #unitOf}) and its key attribute in that unit ({@link UnitRoutingImpl#memberKey}), each null if none.
     */
    public record EntityRoute(boolean referenceData, UnitRoutingImpl unit, MemberKey memberKey) {
    }

    /** {@link EntityRoute} of {@code mappedClass}, cached per class. */
    public EntityRoute entityRoute(Class<?> mappedClass) {
        EntityRoute mapped = mappedRoutes.get(mappedClass);
        return mapped != null ? mapped : entityRoutes.get(mappedClass);
    }

    /** Whether {@code entityType} is reference data. */
    public boolean isReferenceData(Class<?> entityType) {
        return isReference.get(entityType);
    }

    /** The {@code @ReferenceData} entity classes. */
    public Set<Class<?>> referenceDataTypes() {
        return referenceData;
    }

    /** The distinct units, by root. */
    public List<UnitRoutingImpl> units() {
        return unitsByType.values().stream().distinct().toList();
    }
}
