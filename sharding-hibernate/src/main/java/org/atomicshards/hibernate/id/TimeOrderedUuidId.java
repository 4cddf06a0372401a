package org.atomicshards.hibernate.id;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.atomicshards.hibernate.internal.id.TimeOrderedUuidGenerator;
import org.hibernate.annotations.IdGeneratorType;

/**
 * Generates time-ordered (version 7) UUIDs: unique across shards, roughly sortable by creation time, index-friendly.
 * Works in any Hibernate session factory, sharded or not.
 *
 * <p>Put it on the {@code @Id} attribute. An id assigned by the application before persisting is kept.
 */
@Documented
@IdGeneratorType(TimeOrderedUuidGenerator.class)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface TimeOrderedUuidId {
}
