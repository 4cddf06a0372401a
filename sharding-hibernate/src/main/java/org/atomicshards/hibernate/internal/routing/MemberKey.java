package org.atomicshards.hibernate.internal.routing;

import org.hibernate.persister.entity.EntityPersister;
import org.hibernate.property.access.spi.Getter;
import org.hibernate.proxy.HibernateProxy;

/**
 * Reads the shard key of one entity type, precomputed at boot: the key is the entity's id, a basic attribute, the
 * id of the associated root ({@code @ManyToOne @ShardKey}), or an attribute inside a composite id or an embedded
 * value. Reads go through Hibernate's own property access;
 * nothing is looked up by name per call.
 */
public final class MemberKey {

    /** Where the key lives in the entity. */
    public enum Kind {
        /** The entity's id is the key. */
        ID,
        /** A basic attribute holds the key. */
        ATTRIBUTE,
        /** A to-one association to the root, whose id is the key. */
        ROOT_ASSOCIATION,
        /** An attribute inside the entity's composite id ({@code @EmbeddedId} or {@code @IdClass}). */
        IN_ID,
        /** An attribute inside an {@code @Embedded} value. */
        IN_EMBEDDED
    }

    private final Class<?> entityType;
    private final String path;
    private final Kind kind;
    private final int propertyIndex;
    private final EntityPersister persister;
    private final EntityPersister rootPersister;
    private final Getter[] componentPath;

    /**
     * @param path the attribute path as reported by {@code UnitRouting.shardKeyPath}
     * @param propertyIndex index of the attribute in the persister's state; -1 for {@link Kind#ID}
     * @param rootPersister the root's persister for {@link Kind#ROOT_ASSOCIATION}; otherwise null
     */
    public MemberKey(Class<?> entityType, String path, Kind kind, int propertyIndex, EntityPersister persister,
                     EntityPersister rootPersister) {
        this(entityType, path, kind, propertyIndex, persister, rootPersister, new Getter[0]);
    }

    /**
     * @param componentPath for {@link Kind#IN_ID} and {@link Kind#IN_EMBEDDED}: the getters leading from the id or
     *        the embedded value down to the key
     */
    public MemberKey(Class<?> entityType, String path, Kind kind, int propertyIndex, EntityPersister persister,
                     EntityPersister rootPersister, Getter[] componentPath) {
        this.entityType = entityType;
        this.path = path;
        this.kind = kind;
        this.propertyIndex = propertyIndex;
        this.persister = persister;
        this.rootPersister = rootPersister;
        this.componentPath = componentPath.clone();
    }

    public Class<?> entityType() {
        return entityType;
    }

    public String path() {
        return path;
    }

    public Kind kind() {
        return kind;
    }

    public int propertyIndex() {
        return propertyIndex;
    }

    public EntityPersister persister() {
        return persister;
    }

    /** The key of {@code entity}, or null if it has none yet. */
    public Object keyOf(Object entity) {
        return switch (kind) {
            case ID -> persister.getIdentifier(entity);
            case ATTRIBUTE -> persister.getValue(entity, propertyIndex);
            case ROOT_ASSOCIATION -> idOf(persister.getValue(entity, propertyIndex));
            case IN_ID -> descend(persister.getIdentifier(entity));
            case IN_EMBEDDED -> descend(persister.getValue(entity, propertyIndex));
        };
    }

    /** The key from an event's state array and id, or null. */
    public Object keyFromState(Object[] state, Object id) {
        return switch (kind) {
            case ID -> id;
            case ATTRIBUTE -> state[propertyIndex];
            case ROOT_ASSOCIATION -> idOf(state[propertyIndex]);
            case IN_ID -> descend(id);
            case IN_EMBEDDED -> descend(state[propertyIndex]);
        };
    }

    /** Whether a generated key can be assigned to a new entity through {@link #assign}. */
    public boolean assignable() {
        return kind == Kind.ID || kind == Kind.ATTRIBUTE;
    }

    private Object descend(Object component) {
        Object value = component;
        for (Getter getter : componentPath) {
            if (value == null) {
                return null;
            }
            value = getter.get(value);
        }
        return value;
    }

    /** Assigns a generated key to a new entity (only for {@link Kind#ID} and {@link Kind#ATTRIBUTE}). */
    public void assign(Object entity, Object key) {
        switch (kind) {
            case ID -> persister.setIdentifier(entity, key, null);
            case ATTRIBUTE -> persister.setValue(entity, propertyIndex, key);
            default -> throw new IllegalStateException("The key at '" + path + "' cannot be assigned by the library");
        }
    }

    private Object idOf(Object root) {
        if (root == null) {
            return null;
        }
        if (root instanceof HibernateProxy proxy) {
            return proxy.getHibernateLazyInitializer().getInternalIdentifier();
        }
        return rootPersister.getIdentifier(root);
    }
}
