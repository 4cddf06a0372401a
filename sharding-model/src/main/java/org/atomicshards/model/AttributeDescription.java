package org.atomicshards.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One persistent attribute of an entity (or of an embeddable), as Hibernate maps it. Immutable.
 *
 * <p>Built with {@link #builder(String, AttributeKind)}:
 * <pre>{@code
 * AttributeDescription customer = AttributeDescription.builder("customer", AttributeKind.MANY_TO_ONE)
 *         .javaType("com.acme.Customer").targetEntity("com.acme.Customer")
 *         .shardKey(true).updatable(false).column("customer_id").source(field)
 *         .build();
 * }</pre>
 *
 * <p>Names of types are binary class names ({@code Class.getName()}: {@code com.acme.Outer$Inner}); primitive
 * types keep their keyword ({@code long}).
 */
public final class AttributeDescription {

    private final String name;
    private final AttributeKind kind;
    private final String javaType;
    private final String targetEntity;
    private final String mappedBy;
    private final boolean shardKey;
    private final boolean indexed;
    private final boolean uniqueIndex;
    private final boolean id;
    private final boolean updatable;
    private final boolean insertable;
    private final String column;
    private final List<AttributeDescription> components;
    private final Object source;

    private AttributeDescription(Builder builder) {
        this.name = requireText(builder.name, "name");
        this.kind = Objects.requireNonNull(builder.kind, "kind");
        this.javaType = requireText(builder.javaType, "javaType of " + builder.name);
        this.targetEntity = builder.targetEntity;
        this.mappedBy = builder.mappedBy;
        this.shardKey = builder.shardKey;
        this.indexed = builder.indexed;
        this.uniqueIndex = builder.indexed && builder.uniqueIndex;
        this.id = builder.id;
        this.updatable = builder.updatable;
        this.insertable = builder.insertable;
        this.column = builder.column;
        this.components = List.copyOf(builder.components);
        this.source = builder.source;
        if (kind.isAssociation() && targetEntity == null) {
            throw new IllegalArgumentException("Association " + name + " (" + kind + ") needs a targetEntity");
        }
    }

    /** Starts a description of the attribute {@code name} mapped as {@code kind}. */
    public static Builder builder(String name, AttributeKind kind) {
        return new Builder(name, kind);
    }

    /** The attribute's name as Hibernate knows it (the field name, or the property name of a getter). */
    public String name() {
        return name;
    }

    public AttributeKind kind() {
        return kind;
    }

    /**
     * The attribute's Java type: the value type of a basic attribute, the embeddable class, the target entity
     * class of a to-one association, or the element type of a collection.
     */
    public String javaType() {
        return javaType;
    }

    /** The entity class an association refers to; null for non-associations. */
    public String targetEntity() {
        return targetEntity;
    }

    /** The owning attribute's name when this association is the inverse side; null on the owning side. */
    public String mappedBy() {
        return mappedBy;
    }

    /** True if the attribute is marked {@code @ShardKey}. */
    public boolean isShardKey() {
        return shardKey;
    }

    /** True if the attribute is marked {@code @ShardIndex}. */
    public boolean isIndexed() {
        return indexed;
    }

    /** True if the attribute is marked {@code @ShardIndex(unique = true)}; never true when {@link #isIndexed()} is false. */
    public boolean isUniqueIndex() {
        return uniqueIndex;
    }

    /** True if the attribute is (part of) the entity's id: {@code @Id}, {@code @EmbeddedId}. */
    public boolean isId() {
        return id;
    }

    /** False when the mapping says {@code updatable = false} (for an embedded value: for all its columns). */
    public boolean isUpdatable() {
        return updatable;
    }

    /** False when the mapping says {@code insertable = false}. */
    public boolean isInsertable() {
        return insertable;
    }

    /** The column (or join column) name as mapped; null when unknown or when the attribute spans several columns. */
    public String column() {
        return column;
    }

    /** The attributes of an embedded value or of an embeddable collection element; empty otherwise. */
    public List<AttributeDescription> components() {
        return components;
    }

    /** The filler's handle on where this attribute is declared (opaque to the rules); may be null. */
    public Object source() {
        return source;
    }

    @Override
    public String toString() {
        return name + " (" + kind + " " + javaType + (shardKey ? ", shard key" : "")
                + (indexed ? (uniqueIndex ? ", unique index" : ", index") : "") + ")";
    }

    private static String requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return value;
    }

    /** Collects an {@link AttributeDescription}; defaults: not a key, not an id, updatable and insertable. */
    public static final class Builder {
        private final String name;
        private final AttributeKind kind;
        private String javaType;
        private String targetEntity;
        private String mappedBy;
        private boolean shardKey;
        private boolean indexed;
        private boolean uniqueIndex;
        private boolean id;
        private boolean updatable = true;
        private boolean insertable = true;
        private String column;
        private final List<AttributeDescription> components = new ArrayList<>();
        private Object source;

        private Builder(String name, AttributeKind kind) {
            this.name = name;
            this.kind = kind;
        }

        public Builder javaType(String javaType) {
            this.javaType = javaType;
            return this;
        }

        /** Sets the target entity, and the Java type too unless one was set. */
        public Builder targetEntity(String targetEntity) {
            this.targetEntity = targetEntity;
            if (javaType == null) {
                javaType = targetEntity;
            }
            return this;
        }

        public Builder mappedBy(String mappedBy) {
            this.mappedBy = mappedBy;
            return this;
        }

        public Builder shardKey(boolean shardKey) {
            this.shardKey = shardKey;
            return this;
        }

        /** Marks the attribute {@code @ShardIndex} ({@code unique} as its {@code unique} value). */
        public Builder shardIndex(boolean indexed, boolean unique) {
            this.indexed = indexed;
            this.uniqueIndex = unique;
            return this;
        }

        public Builder id(boolean id) {
            this.id = id;
            return this;
        }

        public Builder updatable(boolean updatable) {
            this.updatable = updatable;
            return this;
        }

        public Builder insertable(boolean insertable) {
            this.insertable = insertable;
            return this;
        }

        public Builder column(String column) {
            this.column = column;
            return this;
        }

        public Builder component(AttributeDescription component) {
            this.components.add(Objects.requireNonNull(component, "component"));
            return this;
        }

        public Builder components(List<AttributeDescription> components) {
            components.forEach(this::component);
            return this;
        }

        public Builder source(Object source) {
            this.source = source;
            return this;
        }

        /** @throws IllegalArgumentException if the name or Java type is blank, or an association has no target */
        public AttributeDescription build() {
            return new AttributeDescription(this);
        }
    }
}
