package org.atomicshards.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the root entity of an atomic unit: the root and every entity related to it always live on one shard,
 * the shard that owns the root's {@linkplain ShardKey shard key}.
 *
 * <p>The root carries exactly one {@code @ShardKey} attribute (usually its {@code @Id}) of a supported type:
 * an integral number ({@code byte}, {@code short}, {@code int}, {@code long}, their wrappers,
 * {@code BigInteger}), {@code String}, {@code UUID}, or an {@code @Embeddable} made of those. Every entity
 * reachable from the root through an association must carry the same key, either as a basic attribute marked
 * {@code @ShardKey} or as a {@code @ManyToOne @ShardKey} to the root when the root's id is the key.
 *
 * <pre>{@code
 * @Entity @AtomicUnit
 * class Customer {
 *     @Id @ShardKey Long id;
 *     @OneToMany(mappedBy = "customer") List<Order> orders;
 * }
 *
 * @Entity
 * class Order {
 *     @Id UUID id;
 *     @ManyToOne @JoinColumn(updatable = false) @ShardKey Customer customer;
 * }
 * }</pre>
 *
 * <p>Put it on the top entity of an inheritance hierarchy: every subclass belongs to the same unit. An entity
 * cannot be both an atomic-unit root and {@linkplain ReferenceData reference data}. The annotation processor
 * ({@code sharding-processor}) checks these rules in the build; the runtime checks them again at boot.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface AtomicUnit {
}
