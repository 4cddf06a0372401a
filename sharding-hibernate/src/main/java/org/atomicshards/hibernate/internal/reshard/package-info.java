/**
 * Online resharding, by lifecycle:
 * <ul>
 *   <li>{@link org.atomicshards.hibernate.internal.reshard.fence}: who may read and write a unit on a shard while its
 *       ownership changes, and what the writers log for a move;
 *   <li>{@link org.atomicshards.hibernate.internal.reshard.schema}: the fence's tables and the statements that differ
 *       between the shard databases;
 *   <li>{@link org.atomicshards.hibernate.internal.reshard.lease}: write leases, which let a connection skip the fence
 *       between operations, and how an operation takes them back;
 *   <li>{@link org.atomicshards.hibernate.internal.reshard.journal}: the operations' journal in the catalog, its
 *       fencing tokens and lease;
 *   <li>{@link org.atomicshards.hibernate.internal.reshard.move}: the mover, which copies, catches up, verifies,
 *       switches, promotes and releases one batch after another.
 * </ul>
 * This package holds the administrative entry point ({@link org.atomicshards.hibernate.internal.reshard.ShardAdminImpl})
 * and the automatic resume. The protocol is described in docs/resharding.md. Internal.
 */
package org.atomicshards.hibernate.internal.reshard;
