package org.atomicshards.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an entity as reference data: small, slow-changing rows copied to every shard, so that any atomic unit
 * can join to them locally (countries, currencies, product categories).
 *
 * <p>Unit members may refer to reference data; reference data must not refer to sharded entities (the copy on
 * each shard would point at rows that live on one shard only), and carries no {@link ShardKey}.
 *
 * <pre>{@code
 * @Entity @ReferenceData
 * class Country { @Id String code; String name; }
 *
 * @Entity
 * class Address {
 *     @Id UUID id;
 *     @ShardKey @Column(updatable = false) Long customerId;
 *     @ManyToOne Country country;                  // fine: Country is on every shard
 * }
 * }</pre>
 *
 * <p>Put it on the top entity of an inheritance hierarchy; it cannot be combined with {@link AtomicUnit}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ReferenceData {
}
