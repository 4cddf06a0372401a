package org.atomicshards.hibernate.id;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.atomicshards.hibernate.internal.id.SequenceBlockIdGenerator;
import org.hibernate.annotations.IdGeneratorType;

/**
 * Generates integral ids from blocks reserved in the shard directory: unique across all shards and
 * application instances, increasing within one instance, starting at 0. One sequence per entity hierarchy.
 *
 * <p>Put it on the {@code @Id} attribute. An id assigned by the application before persisting is kept.
 */
@Documented
@IdGeneratorType(SequenceBlockIdGenerator.class)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface SequenceBlockId {
}
