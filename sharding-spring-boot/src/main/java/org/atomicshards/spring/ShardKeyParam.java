package org.atomicshards.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameter of a Spring bean method that carries the shard key of the unit the method works on: the call
 * runs pinned to the shard owning that key, and a {@code @Transactional} on the same method starts its transaction
 * on that shard (the advice runs before Spring's transaction interceptor).
 *
 * <pre>{@code
 * @Transactional
 * public Order placeOrder(@ShardKeyParam long customerId, List<Line> lines) { ... }
 * }</pre>
 *
 * The parameter may also be an entity of the unit (its key is read, as {@code persist} would). Inside the call,
 * touching a second shard throws {@link org.atomicshards.hibernate.CrossShardUnitOfWorkException} and the transaction
 * rolls back. A null key throws {@link org.atomicshards.hibernate.MissingShardKeyException} before the method runs.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ShardKeyParam {

    /** The unit's root entity (or a member class); may be left out when the application has one atomic unit. */
    Class<?> unit() default void.class;
}
