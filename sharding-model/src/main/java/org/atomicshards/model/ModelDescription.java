package org.atomicshards.model;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Every entity of a persistence unit, described neutrally, so the same rules run on what the annotation
 * processor sees in the sources and on what Hibernate's metamodel holds at boot. Immutable.
 *
 * <p>Associations to classes that are not in the description are ignored by the rules (the filler could not see
 * them); fillers should include every entity they can reach.
 */
public final class ModelDescription {

    private final Map<String, EntityDescription> entities;

    private ModelDescription(Map<String, EntityDescription> entities) {
        this.entities = entities;
    }

    /**
     * @throws IllegalArgumentException if two descriptions share a class name, or a supertype is not described
     */
    public static ModelDescription of(Collection<EntityDescription> entities) {
        Map<String, EntityDescription> byName = new LinkedHashMap<>();
        for (EntityDescription entity : entities) {
            if (byName.putIfAbsent(entity.className(), entity) != null) {
                throw new IllegalArgumentException("Entity " + entity.className() + " is described twice");
            }
        }
        for (EntityDescription entity : byName.values()) {
            entity.superEntity().filter(superEntity -> !byName.containsKey(superEntity)).ifPresent(missing -> {
                throw new IllegalArgumentException("Entity " + entity.className() + " extends entity " + missing
                        + ", which is not described");
            });
        }
        return new ModelDescription(Collections.unmodifiableMap(byName));
    }

    /** The entities, in the order given. */
    public Collection<EntityDescription> entities() {
        return entities.values();
    }

    public Optional<EntityDescription> entity(String className) {
        return Optional.ofNullable(entities.get(className));
    }

    public boolean contains(String className) {
        return entities.containsKey(className);
    }
}
