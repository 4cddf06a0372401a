package org.atomicshards.hibernate.internal.boot;

import java.util.HashMap;
import java.util.Map;

import jakarta.persistence.metamodel.EntityType;
import org.atomicshards.hibernate.KeyGeneration;
import org.atomicshards.hibernate.internal.id.SequenceBlockIdGenerator;
import org.atomicshards.hibernate.internal.id.SnowflakeIdGenerator;
import org.atomicshards.hibernate.internal.id.TimeOrderedUuidGenerator;
import org.atomicshards.hibernate.internal.routing.IdRoute;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.generator.Generator;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Decides at boot, from Hibernate's metamodel and the id generator each entity got, how {@code find} routes every
 * unit entity by id and which key generation each unit root's id generator declares. Nothing is looked up, and no
 * annotation read, per call.
 */
final class IdModelBuilder {

    private final SessionFactoryImplementor sessionFactory;
    private final ShardRouterImpl router;

    IdModelBuilder(SessionFactoryImplementor sessionFactory, ShardRouterImpl router) {
        this.sessionFactory = sessionFactory;
        this.router = router;
    }

    /** The id route of every mapped entity type of a unit. */
    Map<Class<?>, IdRoute> idRoutes() {
        Map<Class<?>, IdRoute> routes = new HashMap<>();
        for (EntityType<?> entity : sessionFactory.getJpaMetamodel().getEntities()) {
            Class<?> type = entity.getJavaType();
            UnitRoutingImpl unit = type == null ? null : router.unitOf(type);
            if (unit != null) {
                routes.put(type, idRoute(type, unit));
            }
        }
        return routes;
    }

    private IdRoute idRoute(Class<?> type, UnitRoutingImpl unit) {
        EntityPersister persister = sessionFactory.getMappingMetamodel().getEntityDescriptor(type);
        MemberKey key = unit.memberKey(persister.getMappedClass());
        if (key != null && key.kind() == MemberKey.Kind.ID) {
            return new IdRoute(IdRoute.Kind.KEY, key);
        }
        if (key != null && key.kind() == MemberKey.Kind.IN_ID) {
            return new IdRoute(IdRoute.Kind.KEY_IN_ID, key);
        }
        if (persister.getGenerator() instanceof SnowflakeIdGenerator
                && unit.placement().computesVirtualShards()) {
            return new IdRoute(IdRoute.Kind.SNOWFLAKE, key);
        }
        return new IdRoute(IdRoute.Kind.ASK, key);
    }

    /** The key generation declared by each unit root's id generator annotation, for roots that declare one. */
    Map<Class<?>, KeyGeneration> declaredKeyGenerations() {
        Map<Class<?>, KeyGeneration> declared = new HashMap<>();
        for (UnitRoutingImpl unit : router.units()) {
            Generator generator = sessionFactory.getMappingMetamodel().getEntityDescriptor(unit.root()).getGenerator();
            KeyGeneration generation = generator instanceof SequenceBlockIdGenerator ? KeyGeneration.SEQUENCE
                    : generator instanceof SnowflakeIdGenerator ? KeyGeneration.SNOWFLAKE
                    : generator instanceof TimeOrderedUuidGenerator ? KeyGeneration.TIME_ORDERED_UUID
                    : null;
            if (generation != null) {
                declared.put(unit.root(), generation);
            }
        }
        return declared;
    }
}
