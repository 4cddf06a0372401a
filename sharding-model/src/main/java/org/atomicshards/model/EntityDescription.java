package org.atomicshards.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One entity class as Hibernate maps it: its attributes already flattened over {@code @MappedSuperclass}es and
 * entity supertypes (a subclass lists the attributes it inherits), plus the annotations of Atomic Shards that
 * are <em>declared on this class</em>. Immutable.
 *
 * <pre>{@code
 * EntityDescription order = EntityDescription.builder("com.acme.Order")
 *         .attribute(AttributeDescription.builder("id", AttributeKind.BASIC).javaType("java.util.UUID").id(true).build())
 *         .attribute(customer)
 *         .idGeneration(IdGeneration.UUID)
 *         .source(typeElement)
 *         .build();
 * }</pre>
 */
public final class EntityDescription {

    private final String className;
    private final String superEntity;
    private final boolean atomicUnit;
    private final boolean referenceData;
    private final List<AttributeDescription> attributes;
    private final String idClass;
    private final IdGeneration idGeneration;
    private final Object source;

    private EntityDescription(Builder builder) {
        if (builder.className == null || builder.className.isBlank()) {
            throw new IllegalArgumentException("className must not be blank");
        }
        this.className = builder.className;
        this.superEntity = builder.superEntity;
        this.atomicUnit = builder.atomicUnit;
        this.referenceData = builder.referenceData;
        this.attributes = List.copyOf(builder.attributes);
        this.idClass = builder.idClass;
        this.idGeneration = Objects.requireNonNull(builder.idGeneration, "idGeneration");
        this.source = builder.source;
    }

    public static Builder builder(String className) {
        return new Builder(className);
    }

    /** The binary class name ({@code Class.getName()}). */
    public String className() {
        return className;
    }

    /** The class name of the nearest entity superclass; empty for the top of a hierarchy. */
    public Optional<String> superEntity() {
        return Optional.ofNullable(superEntity);
    }

    /** True if {@code @AtomicUnit} is declared on this class. */
    public boolean isAtomicUnit() {
        return atomicUnit;
    }

    /** True if {@code @ReferenceData} is declared on this class. */
    public boolean isReferenceData() {
        return referenceData;
    }

    /** Every persistent attribute, inherited ones included, id attributes included; in declaration order. */
    public List<AttributeDescription> attributes() {
        return attributes;
    }

    /** The attributes flagged {@link AttributeDescription#isId()}: one for a simple or embedded id, several with an id class. */
    public List<AttributeDescription> idAttributes() {
        return attributes.stream().filter(AttributeDescription::isId).toList();
    }

    /** The {@code @IdClass}, if any. */
    public Optional<String> idClass() {
        return Optional.ofNullable(idClass);
    }

    /** How the id is generated; {@link IdGeneration#ASSIGNED} when it is not. */
    public IdGeneration idGeneration() {
        return idGeneration;
    }

    /** The filler's handle on the class (opaque to the rules); may be null. */
    public Object source() {
        return source;
    }

    @Override
    public String toString() {
        return className;
    }

    /** Collects an {@link EntityDescription}; defaults: no supertype, no annotations, assigned id. */
    public static final class Builder {
        private final String className;
        private String superEntity;
        private boolean atomicUnit;
        private boolean referenceData;
        private final List<AttributeDescription> attributes = new ArrayList<>();
        private String idClass;
        private IdGeneration idGeneration = IdGeneration.ASSIGNED;
        private Object source;

        private Builder(String className) {
            this.className = className;
        }

        public Builder superEntity(String superEntity) {
            this.superEntity = superEntity;
            return this;
        }

        public Builder atomicUnit(boolean atomicUnit) {
            this.atomicUnit = atomicUnit;
            return this;
        }

        public Builder referenceData(boolean referenceData) {
            this.referenceData = referenceData;
            return this;
        }

        public Builder attribute(AttributeDescription attribute) {
            this.attributes.add(Objects.requireNonNull(attribute, "attribute"));
            return this;
        }

        public Builder attributes(List<AttributeDescription> attributes) {
            attributes.forEach(this::attribute);
            return this;
        }

        public Builder idClass(String idClass) {
            this.idClass = idClass;
            return this;
        }

        public Builder idGeneration(IdGeneration idGeneration) {
            this.idGeneration = idGeneration;
            return this;
        }

        public Builder source(Object source) {
            this.source = source;
            return this;
        }

        public EntityDescription build() {
            return new EntityDescription(this);
        }
    }
}
