/**
 * Online resharding: the ownership fence on each shard, the move journal in the catalog, the row copy and the
 * mover that runs the protocol of the README's "Resharding online" section. Internal.
 */
package org.atomicshards.hibernate.internal.reshard;
