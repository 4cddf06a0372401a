package org.atomicshards.hibernate.internal.boot;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.persistence.metamodel.EntityType;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.ShardingConfig;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.routing.DirectoryUnitTopology;
import org.atomicshards.hibernate.internal.routing.KeyTextLimit;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitPlacement;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.model.Unit;
import org.atomicshards.model.UnitMember;
import org.atomicshards.model.UnitModel;
import org.hibernate.engine.jdbc.Size;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.metamodel.mapping.AttributeMapping;
import org.hibernate.metamodel.mapping.BasicValuedModelPart;
import org.hibernate.metamodel.mapping.EmbeddableMappingType;
import org.hibernate.metamodel.mapping.EmbeddableValuedModelPart;
import org.hibernate.metamodel.mapping.EntityIdentifierMapping;
import org.hibernate.metamodel.mapping.ModelPart;
import org.hibernate.metamodel.mapping.NonAggregatedIdentifierMapping;
import org.hibernate.metamodel.mapping.internal.ToOneAttributeMapping;
import org.hibernate.persister.entity.EntityPersister;
import org.hibernate.property.access.spi.Getter;

/**
 * Builds the routing model at boot: runs the rule book on Hibernate's metamodel ({@link ModelCheck}), then turns
 * each resolved unit into a {@link UnitRoutingImpl} with a precomputed key accessor per member and the placement of
 * its policy. All metamodel lookups happen here, once.
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
        Map<String, Class<?>> classes = new HashMap<>();
        for (EntityType<?> type : sessionFactory.getJpaMetamodel().getEntities()) {
            if (type.getJavaType() != null) {
                classes.put(type.getJavaType().getName(), type.getJavaType());
            }
        }
        UnitModel units = new ModelCheck(sessionFactory, config.modelCheck()).run(new ModelDescriber(sessionFactory).describe());
        Set<String> unitNames = new HashSet<>();
        Map<Class<?>, UnitRoutingImpl> byType = new HashMap<>();
        for (Unit unit : units.units()) {
            Class<?> root = classes.get(unit.root());
            Class<?> keyType = keyType(unit);
            Policy policy = policyOf(root, keyType);
            Map<Class<?>, MemberKey> members = new LinkedHashMap<>();
            for (UnitMember member : unit.members()) {
                Class<?> type = classes.get(member.entity());
                members.put(type, memberKey(type, member.keyPath(), root));
            }
            unitNames.add(root.getName());
            unitNames.add(root.getSimpleName());
            UnitPlacement placement = UnitPlacement.prepare(policy.selection(),
                    new DirectoryUnitTopology(root, keyType, directory));
            UnitRoutingImpl routing = new UnitRoutingImpl(root, keyType, policy, placement, members,
                    directory, keyTextLimit(keyType, members, placement));
            members.keySet().forEach(member -> byType.put(member, routing));
        }
        for (String configured : config.policies().keySet()) {
            if (!unitNames.contains(configured)) {
                throw new ShardConfigurationException("Setting '" + ShardingSettings.UNIT_PREFIX + configured
                        + ".policy' names no atomic unit: there is no mapped @AtomicUnit entity '" + configured
                        + "'. Fix: use the simple or fully qualified name of one of "
                        + units.units().stream().map(Unit::root).sorted().toList());
            }
        }
        Set<Class<?>> referenceData = new HashSet<>();
        units.referenceData().forEach(name -> referenceData.add(classes.get(name)));
        return new ShardRouterImpl(directory::dataShards, byType, referenceData);
    }

    private static Class<?> keyType(Unit unit) {
        Class<?> type = switch (unit.keyType()) {
            case "java.lang.Long" -> Long.class;
            case "java.lang.Integer" -> Integer.class;
            case "java.lang.Short" -> Short.class;
            case "java.lang.Byte" -> Byte.class;
            case "java.math.BigInteger" -> BigInteger.class;
            case "java.lang.String" -> String.class;
            case "java.util.UUID" -> UUID.class;
            default -> null;
        };
        if (type == null) {
            throw new ShardConfigurationException("Unit " + unit.root() + " has a shard key of type " + unit.keyType()
                    + ", which this runtime cannot route (a whole @Embeddable as the key is checked by the rule book "
                    + "but not routed). Fix: use an integral number, String or UUID key");
        }
        return type;
    }

    /**
     * The accessor of a member's key path as the rule book resolved it: {@code id}, {@code customerId},
     * {@code customer.id} (to-one to the root), {@code id.customerId} (inside an {@code @EmbeddedId}),
     * {@code customerId} inside an {@code @IdClass}, or {@code address.customerId} (inside an {@code @Embedded}).
     */
    private MemberKey memberKey(Class<?> type, String keyPath, Class<?> root) {
        EntityPersister persister = sessionFactory.getMappingMetamodel().getEntityDescriptor(type);
        String[] segments = keyPath.split("\\.");
        String first = segments[0];
        String idName = persister.getIdentifierPropertyName();
        if (segments.length == 1 && first.equals(idName)) {
            return new MemberKey(type, keyPath, MemberKey.Kind.ID, -1, persister, null);
        }
        int index = propertyIndexOrMinusOne(persister, first);
        if (index >= 0 && segments.length == 1) {
            return new MemberKey(type, keyPath, MemberKey.Kind.ATTRIBUTE, index, persister, null);
        }
        if (index >= 0 && persister.getPropertyTypes()[index].isEntityType()) {
            EntityPersister rootPersister = sessionFactory.getMappingMetamodel().getEntityDescriptor(root);
            return new MemberKey(type, keyPath, MemberKey.Kind.ROOT_ASSOCIATION, index, persister, rootPersister);
        }
        if (index >= 0 && persister.findAttributeMapping(first) instanceof EmbeddableValuedModelPart embedded) {
            return new MemberKey(type, keyPath, MemberKey.Kind.IN_EMBEDDED, index, persister, null,
                    getters(embedded.getEmbeddableTypeDescriptor(), segments, 1, type, keyPath));
        }
        EntityIdentifierMapping id = persister.getIdentifierMapping();
        if (id instanceof NonAggregatedIdentifierMapping idClass && idClass.getIdClassEmbeddable() != null) {
            return new MemberKey(type, keyPath, MemberKey.Kind.IN_ID, -1, persister, null,
                    getters(idClass.getIdClassEmbeddable(), segments, 0, type, keyPath));
        }
        if (first.equals(idName) && id instanceof EmbeddableValuedModelPart embeddedId) {
            return new MemberKey(type, keyPath, MemberKey.Kind.IN_ID, -1, persister, null,
                    getters(embeddedId.getEmbeddableTypeDescriptor(), segments, 1, type, keyPath));
        }
        throw new ShardConfigurationException("Entity " + type.getName() + " carries its shard key at '" + keyPath
                + "', which this runtime cannot read. Fix: carry the key in a basic @ShardKey attribute");
    }

    /** The getters from an embeddable down the remaining segments of a key path. */
    private static Getter[] getters(EmbeddableMappingType embeddable, String[] segments, int from, Class<?> type,
                                    String keyPath) {
        Getter[] getters = new Getter[segments.length - from];
        EmbeddableMappingType current = embeddable;
        for (int i = from; i < segments.length; i++) {
            AttributeMapping attribute = current == null ? null : current.findAttributeMapping(segments[i]);
            if (attribute == null) {
                throw new ShardConfigurationException("Entity " + type.getName() + " carries its shard key at '"
                        + keyPath + "', but '" + segments[i] + "' is not an attribute of its embeddable. Rebuild the "
                        + "entities with the sharding-processor");
            }
            getters[i - from] = attribute.getPropertyAccess().getGetter();
            current = attribute instanceof EmbeddableValuedModelPart nested ? nested.getEmbeddableTypeDescriptor() : null;
        }
        return getters;
    }

    /** The unit's configured policy ({@code hash} unless the settings name one); its fit is checked by prepare. */
    private Policy policyOf(Class<?> root, Class<?> keyType) {
        if (!ShardKeys.isSupported(keyType)) {
            throw new ShardConfigurationException("Unit " + root.getName() + " has a shard key of type "
                    + keyType.getName() + ", which cannot be routed. Fix: use an integral number, String or UUID key");
        }
        Policy policy = config.policies().get(root.getName());
        if (policy == null) {
            policy = config.policies().get(root.getSimpleName());
        }
        return policy != null ? policy : Policies.hash();
    }

    /**
     * The limits of a String key: the shortest key column of the unit (Hibernate's column length, 255 unless
     * declared) and, when the unit is placed key by key in the catalog, the catalog's placement key column.
     */
    private static KeyTextLimit keyTextLimit(Class<?> keyType, Map<Class<?>, MemberKey> members,
                                             UnitPlacement placement) {
        if (keyType != String.class) {
            return null;
        }
        long max = Long.MAX_VALUE;
        String origin = null;
        for (MemberKey member : members.values()) {
            Long length = keyColumnLength(member.persister(), member.path());
            if (length != null && length < max) {
                max = length;
                origin = "the key column of " + member.entityType().getSimpleName() + "." + member.path() + " holds "
                        + length + " characters";
            }
        }
        if (placement.recordsPlacements() && KeyTextLimit.CATALOG_UNIT_KEY_LENGTH < max) {
            max = KeyTextLimit.CATALOG_UNIT_KEY_LENGTH;
            origin = "the catalog records where each unit of a lookup or round-robin policy lives, in column "
                    + "as_placement.unit_key, which holds " + KeyTextLimit.CATALOG_UNIT_KEY_LENGTH + " characters";
        }
        if (origin == null) {
            return new KeyTextLimit(Integer.MAX_VALUE, "no column limit");
        }
        return new KeyTextLimit((int) Math.min(max, Integer.MAX_VALUE), origin);
    }

    /** The declared length of the column holding a member's key, or null when the mapping does not say. */
    private static Long keyColumnLength(EntityPersister persister, String keyPath) {
        String[] segments = keyPath.split("\\.");
        ModelPart part = segments[0].equals(persister.getIdentifierPropertyName())
                ? persister.getIdentifierMapping()
                : persister.findSubPart(segments[0], null);
        for (int i = 1; i < segments.length && part != null; i++) {
            part = part instanceof EmbeddableValuedModelPart embedded
                    ? embedded.getEmbeddableTypeDescriptor().findSubPart(segments[i], null)
                    : null;
        }
        Long length = null;
        if (part instanceof ToOneAttributeMapping toOne) {
            // A foreign key column without its own length gets the referenced column's.
            length = declaredLength(toOne.getForeignKeyDescriptor().getKeyPart());
            part = toOne.getForeignKeyDescriptor().getTargetPart();
        }
        if (length == null && part instanceof BasicValuedModelPart basic && !basic.isLob()) {
            length = declaredLength(basic);
            if (length == null) {
                length = Size.DEFAULT_LENGTH; // what Hibernate's DDL uses for a String column without a length
            }
        }
        return length;
    }

    private static Long declaredLength(ModelPart part) {
        return part instanceof BasicValuedModelPart basic && !basic.isLob() ? basic.getLength() : null;
    }

    private static int propertyIndexOrMinusOne(EntityPersister persister, String name) {
        String[] names = persister.getPropertyNames();
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
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


}
