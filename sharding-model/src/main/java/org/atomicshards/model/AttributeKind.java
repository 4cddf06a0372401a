package org.atomicshards.model;

/**
 * How a persistent attribute is mapped, in the terms of Jakarta Persistence.
 */
public enum AttributeKind {
    /** A single column value ({@code @Basic}, or no mapping annotation). */
    BASIC,
    /** An {@code @Embedded} value or an {@code @EmbeddedId}; its attributes are the description's components. */
    EMBEDDED,
    /** {@code @ManyToOne}. */
    MANY_TO_ONE,
    /** {@code @OneToOne}, owning side or inverse side ({@code mappedBy}). */
    ONE_TO_ONE,
    /** {@code @OneToMany}. */
    ONE_TO_MANY,
    /** {@code @ManyToMany}. */
    MANY_TO_MANY,
    /** {@code @ElementCollection} of basic values or embeddables (components describe an embeddable element). */
    ELEMENT_COLLECTION;

    /** True for the four kinds that refer to another entity. */
    public boolean isAssociation() {
        return this == MANY_TO_ONE || this == ONE_TO_ONE || this == ONE_TO_MANY || this == MANY_TO_MANY;
    }

    /** True for {@link #MANY_TO_ONE} and {@link #ONE_TO_ONE}. */
    public boolean isToOne() {
        return this == MANY_TO_ONE || this == ONE_TO_ONE;
    }

    /** True for attributes holding many values: {@link #ONE_TO_MANY}, {@link #MANY_TO_MANY}, {@link #ELEMENT_COLLECTION}. */
    public boolean isCollection() {
        return this == ONE_TO_MANY || this == MANY_TO_MANY || this == ELEMENT_COLLECTION;
    }
}
