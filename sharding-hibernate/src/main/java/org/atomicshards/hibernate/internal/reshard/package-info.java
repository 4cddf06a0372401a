/**
 * Online resharding: the ownership fence on each shard, the move journal in the catalog, the row copy and the
 * mover that runs the protocol of docs/resharding.md. Internal.
 */
package org.atomicshards.hibernate.internal.reshard;
