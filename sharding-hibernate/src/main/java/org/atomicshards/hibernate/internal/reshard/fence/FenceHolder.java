package org.atomicshards.hibernate.internal.reshard.fence;

import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.journal.StoppedOperations;
import org.atomicshards.hibernate.internal.reshard.move.PromotedBatches;

/** What a factory's fan-outs need for their ownership check; found through the factory's connection provider. */
public interface FenceHolder {

    /** The ownership fence on the shards; null until the factory has booted. */
    OwnershipFence fence();

    /** The factory's shard directory. */
    CachedShardDirectory directory();

    /** Whether every shard's database runs in this JVM, where a statement costs no round trip (embedded H2). */
    boolean shardsInProcess();

    /** The resharding operations no run holds, for the failures they cause to name. */
    StoppedOperations stoppedOperations();

    /** Releases the batches operations promoted and have not released, which fan-outs find claimed twice. */
    PromotedBatches promotedBatches();
}
