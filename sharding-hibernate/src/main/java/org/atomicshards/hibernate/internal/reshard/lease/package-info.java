/**
 * Write leases: between operations, a connection of an instance whose map is current may skip the fence, which makes
 * the steady state cost nothing. The guarantee: no operation changes ownership on a shard while a lease there is held.
 * An operation arms the shard (no new lease), then waits for every lease to be given back within its grace; by
 * default it stops before changing anything and names the sessions still holding one
 * ({@link org.atomicshards.hibernate.internal.reshard.lease.LeaseRevocation}), or, when the operator allows it, ends
 * them.
 */
package org.atomicshards.hibernate.internal.reshard.lease;
