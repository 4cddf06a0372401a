package org.atomicshards.model.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.AttributeKind;
import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.ModelDescription;

/**
 * The model arranged for the rules: entity hierarchies (an entity and its entity subclasses share one table
 * family, so they belong to one unit), shard-key attributes and associations.
 *
 * <p>A hierarchy is named by its top entity; its role ({@code @AtomicUnit} root, {@code @ReferenceData}) is the
 * one declared on the top entity.
 */
final class ModelIndex {

    private final ModelDescription model;
    private final Map<String, String> topOf = new LinkedHashMap<>();
    private final Map<String, List<EntityDescription>> hierarchies = new LinkedHashMap<>();
    private final List<Edge> edges = new ArrayList<>();

    ModelIndex(ModelDescription model) {
        this.model = model;
        for (EntityDescription entity : model.entities()) {
            String top = top(entity);
            topOf.put(entity.className(), top);
            hierarchies.computeIfAbsent(top, key -> new ArrayList<>()).add(entity);
        }
        hierarchies.forEach((top, members) -> members.sort(
                Comparator.comparing((EntityDescription member) -> !member.className().equals(top))));
        for (EntityDescription entity : model.entities()) {
            collectEdges(entity, "", declaredAttributes(entity));
        }
    }

    ModelDescription model() {
        return model;
    }

    /** The top entity of the hierarchy of {@code entity}. */
    String topOf(String entity) {
        return topOf.get(entity);
    }

    EntityDescription entity(String className) {
        return model.entity(className).orElseThrow();
    }

    /** Top entity names, in model order. */
    Set<String> tops() {
        return hierarchies.keySet();
    }

    /** The entities of a hierarchy, its top first. */
    List<EntityDescription> hierarchy(String top) {
        return hierarchies.get(top);
    }

    boolean isRoot(String top) {
        return entity(top).isAtomicUnit();
    }

    /** Reference data unless the top is (wrongly) also a root: then the stricter role wins. */
    boolean isReferenceData(String top) {
        EntityDescription entity = entity(top);
        return entity.isReferenceData() && !entity.isAtomicUnit();
    }

    /** Every association of the model to a described entity; inherited attributes once, on the declaring entity. */
    List<Edge> edges() {
        return edges;
    }

    /** The shard-key attributes of {@code entity}, found directly or inside embedded values (not inside collections). */
    static List<KeyAttribute> keys(EntityDescription entity) {
        List<KeyAttribute> keys = new ArrayList<>();
        collectKeys(entity.attributes(), "", false, keys);
        return keys;
    }

    /**
     * The attributes {@code entity} declares itself: those its entity supertype does not also list. Inherited
     * attributes are reported once, on the supertype.
     */
    List<AttributeDescription> declaredAttributes(EntityDescription entity) {
        if (entity.superEntity().isEmpty()) {
            return entity.attributes();
        }
        Set<String> inherited = new HashSet<>();
        entity(entity.superEntity().get()).attributes().forEach(attribute -> inherited.add(attribute.name()));
        return entity.attributes().stream().filter(attribute -> !inherited.contains(attribute.name())).toList();
    }

    private static void collectKeys(List<AttributeDescription> attributes, String prefix, boolean inId,
                                    List<KeyAttribute> keys) {
        for (AttributeDescription attribute : attributes) {
            boolean id = inId || attribute.isId();
            if (attribute.isShardKey()) {
                keys.add(new KeyAttribute(prefix + attribute.name(), attribute, id));
            } else if (attribute.kind() == AttributeKind.EMBEDDED) {
                collectKeys(attribute.components(), prefix + attribute.name() + ".", id, keys);
            }
        }
    }

    private void collectEdges(EntityDescription owner, String prefix, List<AttributeDescription> attributes) {
        for (AttributeDescription attribute : attributes) {
            if (attribute.kind().isAssociation()) {
                if (model.contains(attribute.targetEntity())) {
                    edges.add(new Edge(owner, prefix + attribute.name(), attribute));
                }
            } else if (!attribute.components().isEmpty()) {
                collectEdges(owner, prefix + attribute.name() + ".", attribute.components());
            }
        }
    }

    private String top(EntityDescription entity) {
        EntityDescription current = entity;
        Set<String> seen = new HashSet<>();
        while (current.superEntity().isPresent() && seen.add(current.className())) {
            current = entity(current.superEntity().get());
        }
        return current.className();
    }
}
