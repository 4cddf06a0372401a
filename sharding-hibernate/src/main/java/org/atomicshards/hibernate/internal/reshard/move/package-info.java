/**
 * The mover: one recorded operation carried batch after batch through copy, catch-up, verification, freeze, switch,
 * promotion and release ({@link org.atomicshards.hibernate.internal.reshard.move.Mover}). The guarantee: every step is
 * idempotent and journalled before it takes effect, so a crash at any point is resumed to completion; the source stays
 * authoritative until the switch, and the freeze only ends once the target's copy was compared equal.
 */
package org.atomicshards.hibernate.internal.reshard.move;
