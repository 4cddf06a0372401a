package org.atomicshards.hibernate.internal.index;

import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;

/**
 * One {@link org.atomicshards.annotations.ShardIndex}: the attribute of an entity (and of its subclasses) whose values
 * are indexed, and the unit its rows belong to.
 *
 * @param name       the index's stored name, {@code <entity class>.<attribute>}; never null
 * @param entity     the entity class declaring the attribute
 * @param entityName the entity's name in queries
 * @param attribute  the indexed basic attribute
 * @param valueType  the attribute's Java type (boxed)
 * @param unique     whether at most one unit may hold a value
 * @param unit       the routing of the entity's atomic unit
 * @param keyPath    the path of the unit's key from the entity ({@code id}, {@code customer.id})
 * @param onRoot     whether the entity is the unit's root (one row per unit)
 */
public record IndexDefinition(String name, Class<?> entity, String entityName, String attribute, Class<?> valueType,
                              boolean unique, UnitRoutingImpl unit, String keyPath, boolean onRoot) {

    /** The longest stored index name. */
    static final int MAX_NAME_LENGTH = 200;

    /** The root's key path, to lock the unit's root row. */
    String rootKeyPath() {
        return unit.shardKeyPath(unit.root());
    }

    @Override
    public String toString() {
        return name + (unique ? " (unique)" : "");
    }
}
