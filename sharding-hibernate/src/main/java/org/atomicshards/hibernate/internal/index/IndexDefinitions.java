package org.atomicshards.hibernate.internal.index;

import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.persistence.metamodel.Attribute;
import jakarta.persistence.metamodel.EntityType;
import jakarta.persistence.metamodel.ManagedType;

import org.atomicshards.annotations.ShardIndex;
import org.atomicshards.hibernate.ShardIndexException;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * The factory's indexes, read once at boot from the {@link ShardIndex} annotations of the mapped entities (the rule
 * book has checked their placement), and looked up by entity type (subclasses share their supertype's indexes).
 */
public final class IndexDefinitions {

    private final Map<String, IndexDefinition> byName;
    private final ClassValue<List<IndexDefinition>> byType = new ClassValue<>() {
        @Override
        protected List<IndexDefinition> computeValue(Class<?> type) {
            List<IndexDefinition> found = new ArrayList<>();
            for (IndexDefinition definition : byName.values()) {
                if (definition.entity().isAssignableFrom(type)) {
                    found.add(definition);
                }
            }
            return List.copyOf(found);
        }
    };

    private IndexDefinitions(Map<String, IndexDefinition> byName) {
        this.byName = byName;
    }

    /** The indexes of the entities of {@code sessionFactory}'s units. */
    public static IndexDefinitions read(SessionFactoryImplementor sessionFactory, ShardRouterImpl router) {
        Map<String, IndexDefinition> found = new LinkedHashMap<>();
        for (EntityType<?> entity : sessionFactory.getJpaMetamodel().getEntities()) {
            for (Attribute<?, ?> attribute : entity.getAttributes()) {
                ManagedType<?> declaring = attribute.getDeclaringType();
                if (declaring instanceof EntityType<?> && declaring != entity) {
                    continue; // the entity supertype declaring it holds the index
                }
                if (!(attribute.getJavaMember() instanceof AnnotatedElement element)) {
                    continue;
                }
                ShardIndex index = element.getAnnotation(ShardIndex.class);
                if (index == null) {
                    continue;
                }
                Class<?> type = entity.getJavaType();
                UnitRoutingImpl unit = (UnitRoutingImpl) router.routingOf(type).orElseThrow(() -> new ShardIndexException(
                        "@ShardIndex on " + type.getName() + "." + attribute.getName() + ", which is in no atomic unit"));
                String name = type.getName() + "." + attribute.getName();
                if (name.length() > IndexDefinition.MAX_NAME_LENGTH) {
                    throw new ShardIndexException("The index name " + name + " is longer than "
                            + IndexDefinition.MAX_NAME_LENGTH + " characters. Fix: shorten the attribute's name");
                }
                found.put(name, new IndexDefinition(name, type, entity.getName(), attribute.getName(),
                        IndexValues.boxed(attribute.getJavaType()), index.unique(), unit, unit.shardKeyPath(type),
                        unit.root().isAssignableFrom(type)));
            }
        }
        return new IndexDefinitions(found);
    }

    /** The indexes of {@code type}'s attributes (declared by it or an entity supertype); empty for most types. */
    public List<IndexDefinition> of(Class<?> type) {
        return byType.get(type);
    }

    /** The index of {@code type}'s attribute {@code attribute}, if it has one. */
    public Optional<IndexDefinition> of(Class<?> type, String attribute) {
        return of(type).stream().filter(definition -> definition.attribute().equals(attribute)).findFirst();
    }

    /**
     * The index of {@code type}'s attribute {@code attribute}.
     *
     * @throws ShardIndexException naming the indexes there are, if it has none
     */
    public IndexDefinition require(Class<?> type, String attribute) {
        return of(type, attribute).orElseThrow(() -> new ShardIndexException(type.getName() + "." + attribute
                + " has no @ShardIndex. Indexes of this factory: " + (byName.isEmpty() ? "none" : byName.keySet())));
    }

    public Collection<IndexDefinition> all() {
        return byName.values();
    }

    public boolean isEmpty() {
        return byName.isEmpty();
    }
}
