package org.atomicshards.hibernate.internal.boot;

import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.hibernate.boot.model.FunctionContributions;
import org.hibernate.boot.model.FunctionContributor;
import org.hibernate.type.StandardBasicTypes;

/**
 * Registers {@value OwnershipFence#EPOCH_FUNCTION}{@code ()}, the shard's ownership epoch as a scalar subquery, so
 * that a fan-out's shard statement reads the epoch in its own snapshot instead of in a second statement (one round
 * trip per shard instead of two). Registered for every session factory on the class path; only Atomic Shards' fan-outs
 * call it, on shards that have the fence's tables.
 */
public final class FenceEpochFunction implements FunctionContributor {

    @Override
    public void contributeFunctions(FunctionContributions functions) {
        functions.getFunctionRegistry().registerPattern(OwnershipFence.EPOCH_FUNCTION, OwnershipFence.EPOCH_SUBQUERY,
                functions.getTypeConfiguration().getBasicTypeRegistry().resolve(StandardBasicTypes.LONG));
    }
}
