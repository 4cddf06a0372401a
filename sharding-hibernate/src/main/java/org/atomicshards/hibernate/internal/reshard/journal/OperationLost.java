package org.atomicshards.hibernate.internal.reshard.journal;

import org.atomicshards.hibernate.AtomicShardsException;

/**
 * Thrown inside a run of an operation that no longer holds it: its lease lapsed (the run was paused, or cut off from
 * the catalog, for longer than its lease) and another run claimed the operation, or the operation ended. The run stops
 * where it stands, writing nothing more to the journal or to any shard; the run that holds the operation carries it
 * on. Every change a run makes to the journal is conditional on the run's token, so a run learns it lost the
 * operation at the latest at its next journal write.
 */
public final class OperationLost extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public OperationLost(String moveId, String token, String why) {
        super("This run of operation " + moveId + " (" + token + ") no longer holds it: " + why + ". It stopped "
                + "before its next step; the run holding the operation carries it on (ShardAdmin.operations() names "
                + "it)");
    }
}
