package org.atomicshards.hibernate;

import java.util.List;
import java.util.Map;

/**
 * Thrown when a reference-data write did not reach every shard. {@link #appliedOn()} and {@link #failedOn()} say
 * exactly where it was and was not applied, so the divergence is never silent.
 */
public class ReferenceDataWriteException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    private final List<ShardId> appliedOn;
    private final Map<ShardId, String> failedOn;

    public ReferenceDataWriteException(List<ShardId> appliedOn, Map<ShardId, String> failedOn, Throwable cause) {
        super("Reference data write " + (appliedOn.isEmpty() ? "applied on no shard" : "applied on " + appliedOn)
                + " and failed on " + failedOn.keySet() + ": " + failedOn
                + (appliedOn.isEmpty() ? ". Nothing was changed; fix the cause and retry"
                        : ". The shards now differ; retry the write on " + failedOn.keySet()), cause);
        this.appliedOn = List.copyOf(appliedOn);
        this.failedOn = Map.copyOf(failedOn);
    }

    /** The shards where the write was committed. */
    public List<ShardId> appliedOn() {
        return appliedOn;
    }

    /** The shards where it failed, with the reason. */
    public Map<ShardId, String> failedOn() {
        return failedOn;
    }
}
