/**
 * The operations' journal in the catalog ({@code as_move}): each operation's state, batch by batch, written before
 * its step takes effect. The guarantee: one run acts on an operation at a time. Every journal write is conditional on
 * the run's fencing token; a heartbeat renews its lease however long a step takes
 * ({@link org.atomicshards.hibernate.internal.reshard.journal.LeaseHeartbeat}); a run that lost its operation stops at
 * its next step ({@link org.atomicshards.hibernate.internal.reshard.journal.OperationLost}).
 */
package org.atomicshards.hibernate.internal.reshard.journal;
