package org.atomicshards.model;

/**
 * The part of a described element a {@link Violation} points at, so a tool that knows the element's source
 * (the annotation processor: an {@code Element}, its {@code AnnotationMirror}s and values) can place the caret
 * exactly. A tool that cannot resolve a site reports on the element itself.
 */
public enum Site {
    /** The entity class or the attribute itself. */
    ELEMENT,
    /** The entity's {@code @AtomicUnit} annotation. */
    ATOMIC_UNIT,
    /** The attribute's {@code @ShardIndex} annotation. */
    SHARD_INDEX,
    /** The entity's {@code @ReferenceData} annotation. */
    REFERENCE_DATA,
    /** The attribute's {@code @ShardKey} annotation. */
    SHARD_KEY,
    /** The attribute's association annotation ({@code @ManyToOne}, {@code @OneToMany}, ...). */
    ASSOCIATION,
    /** The id attribute's {@code @GeneratedValue} (its {@code strategy} value when present). */
    ID_GENERATION,
    /** The {@code updatable} value of the attribute's {@code @Column} or {@code @JoinColumn}. */
    UPDATABLE
}
