package org.atomicshards.hibernate.id;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.atomicshards.hibernate.internal.id.SnowflakeIdGenerator;
import org.hibernate.annotations.IdGeneratorType;

/**
 * Generates Snowflake-style {@code long} ids (time, virtual shard, worker, sequence) that encode the virtual shard
 * of the entity's atomic unit, so that {@code ShardedSessionFactory.find(type, id)} routes from the id alone. A new
 * root keyed by such an id gets a virtual shard of the session's shard; a member gets its unit's virtual shard.
 *
 * <p>Put it on the {@code @Id} attribute. An id assigned by the application before persisting is kept.
 */
@Documented
@IdGeneratorType(SnowflakeIdGenerator.class)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface SnowflakeId {
}
