package org.atomicshards.hibernate.internal.boot;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Member;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.persistence.metamodel.Attribute;
import jakarta.persistence.metamodel.EntityType;
import jakarta.persistence.metamodel.PluralAttribute;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ReferenceData;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.Selection;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.ShardingConfig;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.routing.ConsistentHashRing;
import org.atomicshards.hibernate.internal.routing.DirectoryPlacement;
import org.atomicshards.hibernate.internal.routing.KeyPlacement;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.atomicshards.hibernate.internal.routing.RingPlacement;
import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.SnowflakeLayout;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.internal.routing.VirtualShardPlacement;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Builds the routing model from Hibernate's metamodel at boot: the atomic units ({@code @AtomicUnit} roots), the
 * key accessor of each member ({@code @ShardKey}), the reference-data types, and each unit's placement from its
 * policy. All reflection happens here, once.
 */
final class UnitModelBuilder {

    private final SessionFactoryImplementor sessionFactory;
    private final ShardingConfig config;
    private final CachedShardDirectory directory;

    UnitModelBuilder(SessionFactoryImplementor sessionFactory, ShardingConfig config, CachedShardDirectory directory) {
        this.sessionFactory = sessionFactory;
        this.config = config;
        this.directory = directory;
    }

    ShardRouterImpl build() {
        Map<Class<?>, EntityType<?>> entities = new LinkedHashMap<>();
        for (EntityType<?> type : sessionFactory.getJpaMetamodel().getEntities()) {
            if (type.getJavaType() != null) {
                entities.put(type.getJavaType(), type);
            }
        }
        Set<Class<?>> referenceData = new HashSet<>();
        Map<Class<?>, Class<?>> rootOf = new HashMap<>();
        for (Class<?> type : entities.keySet()) {
            if (annotatedInHierarchy(type, ReferenceData.class) != null) {
                referenceData.add(type);
            }
            Class<?> root = annotatedInHierarchy(type, AtomicUnit.class);
            if (root != null) {
                rootOf.put(type, root);
            }
        }
        Map<Class<?>, Map<Class<?>, MemberKey>> membersByRoot = new LinkedHashMap<>();
        Map<Class<?>, Class<?>> keyTypes = new HashMap<>();
        for (Map.Entry<Class<?>, EntityType<?>> entry : entities.entrySet()) {
            Class<?> type = entry.getKey();
            Attribute<?, ?> keyAttribute = shardKeyAttribute(entry.getValue());
            if (keyAttribute == null || referenceData.contains(type)) {
                continue;
            }
            EntityPersister persister = sessionFactory.getMappingMetamodel().getEntityDescriptor(type);
            Class<?> root = rootOf.get(type);
            MemberKey key;
            if (root != null) {
                key = basicKey(type, keyAttribute, persister);
                keyTypes.putIfAbsent(root, boxed(keyAttribute.getJavaType()));
            } else if (keyAttribute.isAssociation() && rootOf.containsKey(keyAttribute.getJavaType())) {
                root = rootOf.get(keyAttribute.getJavaType());
                EntityPersister rootPersister = sessionFactory.getMappingMetamodel().getEntityDescriptor(root);
                key = new MemberKey(type, keyAttribute.getName() + "." + rootPersister.getIdentifierPropertyName(),
                        MemberKey.Kind.ROOT_ASSOCIATION, propertyIndex(persister, keyAttribute.getName()), persister,
                        rootPersister);
            } else {
                root = unitByAssociations(type, entities, rootOf);
                if (root == null) {
                    continue;
                }
                key = basicKey(type, keyAttribute, persister);
            }
            membersByRoot.computeIfAbsent(root, r -> new LinkedHashMap<>()).put(type, key);
        }
        Set<String> unitNames = new HashSet<>();
        Map<Class<?>, UnitRoutingImpl> byType = new HashMap<>();
        for (Map.Entry<Class<?>, Map<Class<?>, MemberKey>> unit : membersByRoot.entrySet()) {
            Class<?> root = unit.getKey();
            Class<?> keyType = keyTypes.get(root);
            if (keyType == null) {
                continue; // a root without a key is reported by the model check
            }
            Policy policy = policyOf(root, keyType);
            unitNames.add(root.getName());
            unitNames.add(root.getSimpleName());
            UnitRoutingImpl routing = new UnitRoutingImpl(root, keyType, policy, placement(root, policy),
                    unit.getValue(), directory, config.topology().shardIds());
            unit.getValue().keySet().forEach(member -> byType.put(member, routing));
        }
        for (String configured : config.policies().keySet()) {
            if (!unitNames.contains(configured)) {
                throw new ShardConfigurationException("Setting '" + ShardingSettings.UNIT_PREFIX + configured
                        + ".policy' names no atomic unit: there is no mapped @AtomicUnit entity '" + configured
                        + "'. Fix: use the simple or fully qualified name of one of " + membersByRoot.keySet().stream()
                        .map(Class::getName).sorted().toList());
            }
        }
        return new ShardRouterImpl(config.topology().shardIds(), byType, referenceData);
    }

    private Policy policyOf(Class<?> root, Class<?> keyType) {
        Policy policy = config.policies().get(root.getName());
        if (policy == null) {
            policy = config.policies().get(root.getSimpleName());
        }
        if (policy == null) {
            policy = Policies.hash();
        }
        String setting = ShardingSettings.UNIT_PREFIX + root.getName() + ".policy";
        if (!ShardKeys.isSupported(keyType)) {
            throw new ShardConfigurationException("Unit " + root.getName() + " has a shard key of type "
                    + keyType.getName() + ", which cannot be routed. Fix: use an integral number, String or UUID key");
        }
        Selection selection = policy.selection();
        if ((selection == Selection.MODULO || selection == Selection.RANGE || selection == Selection.SNOWFLAKE)
                && !ShardKeys.isIntegral(keyType)) {
            throw new ShardConfigurationException("Setting '" + setting + "' has value '" + selection
                    + "' but unit " + root.getName() + " has a " + keyType.getSimpleName()
                    + " key; " + selection + " needs an integral key. Fix: use HASH or CONSISTENT_HASH");
        }
        if (selection == Selection.SNOWFLAKE && directory.virtualShards() > SnowflakeLayout.MAX_VIRTUAL_SHARDS) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.VIRTUAL_SHARDS + "' has value '"
                    + directory.virtualShards() + "' but unit " + root.getName() + " uses Snowflake keys, which "
                    + "encode at most " + SnowflakeLayout.MAX_VIRTUAL_SHARDS + " virtual shards. Fix: use at most "
                    + SnowflakeLayout.MAX_VIRTUAL_SHARDS + " virtual shards");
        }
        return policy;
    }

    private KeyPlacement placement(Class<?> root, Policy policy) {
        return switch (policy.selection()) {
            case HASH -> VirtualShardPlacement.hash(directory);
            case MODULO -> VirtualShardPlacement.modulo(directory);
            case RANGE -> VirtualShardPlacement.range(directory, policy.ranges(), root.getName());
            case SNOWFLAKE -> VirtualShardPlacement.snowflake(directory);
            case CONSISTENT_HASH -> new RingPlacement(new ConsistentHashRing(
                    directory.ringMembers(root.getName(), directory.owningShards()), policy.ringNodes()));
            case LOOKUP -> new DirectoryPlacement(directory, root.getName(), false);
            case ROUND_ROBIN -> new DirectoryPlacement(directory, root.getName(), true);
        };
    }

    private static MemberKey basicKey(Class<?> type, Attribute<?, ?> attribute, EntityPersister persister) {
        if (attribute.getName().equals(persister.getIdentifierPropertyName())) {
            return new MemberKey(type, attribute.getName(), MemberKey.Kind.ID, -1, persister, null);
        }
        return new MemberKey(type, attribute.getName(), MemberKey.Kind.ATTRIBUTE,
                propertyIndex(persister, attribute.getName()), persister, null);
    }

    /** The unit reached from {@code type} through its associations (either direction), or the only unit. */
    private static Class<?> unitByAssociations(Class<?> type, Map<Class<?>, EntityType<?>> entities,
                                               Map<Class<?>, Class<?>> rootOf) {
        Set<Class<?>> seen = new HashSet<>();
        Deque<Class<?>> queue = new ArrayDeque<>(List.of(type));
        while (!queue.isEmpty()) {
            Class<?> current = queue.poll();
            if (!seen.add(current)) {
                continue;
            }
            if (rootOf.containsKey(current)) {
                return rootOf.get(current);
            }
            EntityType<?> entity = entities.get(current);
            if (entity != null) {
                for (Attribute<?, ?> attribute : entity.getAttributes()) {
                    if (attribute.isAssociation()) {
                        queue.add(targetOf(attribute));
                    }
                }
            }
            for (Map.Entry<Class<?>, EntityType<?>> other : entities.entrySet()) {
                for (Attribute<?, ?> attribute : other.getValue().getAttributes()) {
                    if (attribute.isAssociation() && targetOf(attribute) == current) {
                        queue.add(other.getKey());
                    }
                }
            }
        }
        Set<Class<?>> roots = new HashSet<>(rootOf.values());
        return roots.size() == 1 ? roots.iterator().next() : null;
    }

    private static Class<?> targetOf(Attribute<?, ?> attribute) {
        return attribute instanceof PluralAttribute<?, ?, ?> plural
                ? plural.getElementType().getJavaType() : attribute.getJavaType();
    }

    private static Attribute<?, ?> shardKeyAttribute(EntityType<?> entity) {
        for (Attribute<?, ?> attribute : entity.getAttributes()) {
            Member member = attribute.getJavaMember();
            if (member instanceof AnnotatedElement element && element.isAnnotationPresent(ShardKey.class)) {
                return attribute;
            }
        }
        return null;
    }

    private static int propertyIndex(EntityPersister persister, String name) {
        String[] names = persister.getPropertyNames();
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException("Attribute " + name + " is not a property of " + persister.getEntityName());
    }

    private static Class<?> annotatedInHierarchy(Class<?> type, Class<? extends java.lang.annotation.Annotation> annotation) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (c.isAnnotationPresent(annotation)) {
                return c;
            }
        }
        return null;
    }

    private static Class<?> boxed(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        if (type == long.class) {
            return Long.class;
        }
        if (type == int.class) {
            return Integer.class;
        }
        if (type == short.class) {
            return Short.class;
        }
        if (type == byte.class) {
            return Byte.class;
        }
        return type;
    }
}
