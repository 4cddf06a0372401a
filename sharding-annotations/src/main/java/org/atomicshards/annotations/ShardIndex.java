package org.atomicshards.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Keeps an index from the attribute's value to the key of the atomic unit that holds it, so that a look-up by the
 * attribute asks one shard instead of every shard, and (with {@link #unique()}) so that no two units hold the same
 * value. The index is data of the library, spread over the shards by the indexed value.
 *
 * <pre>{@code
 * @Entity @AtomicUnit
 * class Customer {
 *     @Id @ShardKey Long id;
 *     @ShardIndex(unique = true) String email;     // find by email asks one shard; one customer per email
 * }
 * }</pre>
 *
 * <p>Put it on a basic attribute of a unit's root (or of a member) whose type is an integral number, {@code String} or
 * {@code UUID}; not on the shard key (which routes by itself) nor on reference data (which is on every shard).
 * Values are compared exactly: normalise them (for example lower-case an e-mail address) before they are written.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface ShardIndex {

    /**
     * Whether at most one atomic unit may hold a value. A write giving a second unit a value another unit holds fails
     * before the unit commits.
     */
    boolean unique() default false;
}
