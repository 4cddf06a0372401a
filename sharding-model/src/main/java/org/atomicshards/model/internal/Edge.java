package org.atomicshards.model.internal;

import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.EntityDescription;

/**
 * One association declared by an entity (directly or inside an embedded value), to an entity of the model.
 *
 * @param owner     the entity declaring the attribute
 * @param path      the attribute path from the owner
 * @param attribute the association
 */
record Edge(EntityDescription owner, String path, AttributeDescription attribute) {

    String target() {
        return attribute.targetEntity();
    }

    /** {@code com.acme.Order.customer}. */
    String label() {
        return owner.className() + "." + path;
    }
}
