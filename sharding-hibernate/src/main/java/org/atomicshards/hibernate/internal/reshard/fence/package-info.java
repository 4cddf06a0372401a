/**
 * The ownership fence: the guarantee that no write is lost and no read answers wrongly while a unit's ownership
 * changes. Each shard holds its claims ({@code as_ownership}, {@code as_unit_fence}, {@code as_ring_fence}) and an
 * epoch raised by every change of them.
 * <ul>
 *   <li>Every write of a unit, however its session was opened, enters the fence of its virtual shard inside its
 *       transaction ({@link org.atomicshards.hibernate.internal.reshard.fence.WriteFence}): a share lock on the claim
 *       that the mover's freeze waits for, and, while the virtual shard is copied, an entry in the change log for
 *       every row written ({@link org.atomicshards.hibernate.internal.reshard.fence.WrittenRow}). Bulk and native
 *       writes enter every claim of their shard and log what they may touch whole.
 *   <li>A read by key is confirmed against the claims before and after it; a fan-out checks every shard's claims
 *       around its statements and runs again when they overlap or leave a gap
 *       ({@link org.atomicshards.hibernate.internal.reshard.fence.FanOutOwnership}).
 *   <li>A write or read the fence refuses fails with the retryable {@code ShardMovingException} before anything of
 *       it commits.
 * </ul>
 */
package org.atomicshards.hibernate.internal.reshard.fence;
