package org.atomicshards.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the persistent attribute that holds an atomic unit's shard key.
 *
 * <ul>
 *   <li>On the {@linkplain AtomicUnit root}: the attribute whose value is the unit's key, usually the {@code @Id}.
 *   <li>On every other entity of the unit: the attribute that carries the root's key, of the same type as the
 *       root's key ({@code long} and {@code Long} count as the same type), or the {@code @ManyToOne} (or owning
 *       {@code @OneToOne}) association to the root when the root's id is the key; its foreign key then holds
 *       the key.
 *   <li>On an {@code @Embeddable}'s attribute, when the entity carries the key inside an embedded value.
 * </ul>
 *
 * <p>Put it where Hibernate reads the mapping: on the field for field access (the {@code @Id} is on a field), on
 * the getter for property access. The key never changes once a row is written; map it with
 * {@code updatable = false} ({@code @Column} or {@code @JoinColumn}), otherwise the processor warns.
 *
 * <pre>{@code
 * @Entity
 * class Order {                                    // the key travels in the foreign key to the root
 *     @Id UUID id;
 *     @ManyToOne @JoinColumn(updatable = false) @ShardKey Customer customer;
 * }
 *
 * @Entity
 * class AuditEntry {                               // or as a plain column
 *     @Id UUID id;
 *     @ShardKey @Column(updatable = false) Long customerId;
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface ShardKey {
}
