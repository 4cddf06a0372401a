package org.atomicshards.hibernate;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A fan-out query under {@link ExecutionPolicy#COMPLETE} failed because at least one shard failed. The shards
 * still running were cancelled. The message names every failed shard and its cause; {@link #failures()} gives
 * them as objects, and the first cause is also this exception's {@link #getCause()}.
 */
public class ShardQueryFailedException extends FanOutQueryException {

    private static final long serialVersionUID = 1L;

    private final transient List<ShardFailure> failures;

    public ShardQueryFailedException(List<ShardFailure> failures, int targetShards) {
        super(message(failures, targetShards), failures.isEmpty() ? null : failures.get(0).cause());
        this.failures = List.copyOf(failures);
        for (int i = 1; i < failures.size(); i++) {
            addSuppressed(failures.get(i).cause());
        }
    }

    /** The failed shards, in the order the failures were observed; never empty. */
    public List<ShardFailure> failures() {
        return failures;
    }

    private static String message(List<ShardFailure> failures, int targetShards) {
        return "Fan-out query failed on " + failures.size() + " of " + targetShards + " shard(s): "
                + failures.stream().map(ShardFailure::describe).collect(Collectors.joining(", "))
                + ". The other shards were cancelled. Use ExecutionPolicy.PARTIAL to get the rows of the shards that"
                + " answered.";
    }
}
