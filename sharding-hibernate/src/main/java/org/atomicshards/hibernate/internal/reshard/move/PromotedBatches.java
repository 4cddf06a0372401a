package org.atomicshards.hibernate.internal.reshard.move;

import java.util.function.BooleanSupplier;

/**
 * Releases the batches that resharding operations promoted on their targets and have not released on their sources,
 * when a fan-out keeps finding a virtual shard claimed by two shards: a run that died (or is paused) between the
 * promotion and the release would otherwise hold every fan-out up until a resume, or until its lease lapsed. The
 * release is safe for anyone at any time once the batch is promoted ({@link Mover#releasePromoted}).
 */
public final class PromotedBatches {

    private final BooleanSupplier release;

    /** @param release releases every promoted, unreleased batch; true if there was any */
    public PromotedBatches(BooleanSupplier release) {
        this.release = release;
    }

    /** Whether a promoted batch was released; false if there was none, or the catalog or a source cannot be reached. */
    public boolean release() {
        try {
            return release.getAsBoolean();
        } catch (RuntimeException unreachable) {
            return false;
        }
    }
}
