package org.atomicshards.model.internal;

import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.AttributeKind;

/**
 * An attribute marked {@code @ShardKey}, found directly on an entity or inside one of its embedded values.
 *
 * @param path      the attribute path from the entity ({@code customerId}, {@code id.customerId})
 * @param attribute the marked attribute
 * @param inId      true if the attribute is the id or lies inside the id
 */
record KeyAttribute(String path, AttributeDescription attribute, boolean inId) {

    /** The key's type as compared between root and members; null for associations and collections. */
    String keyType() {
        return switch (attribute.kind()) {
            case BASIC -> JavaTypes.boxed(attribute.javaType());
            case EMBEDDED -> attribute.javaType();
            default -> null;
        };
    }

    boolean isValue() {
        return attribute.kind() == AttributeKind.BASIC || attribute.kind() == AttributeKind.EMBEDDED;
    }

    /** A to-one association holding a foreign key in the entity's own table (owning side). */
    boolean isOwningToOne() {
        return attribute.kind().isToOne() && attribute.mappedBy() == null;
    }

    /** False for collections and inverse to-one sides: those keep no key column in the entity's table. */
    boolean storesOwnColumn() {
        return isValue() || isOwningToOne();
    }
}
