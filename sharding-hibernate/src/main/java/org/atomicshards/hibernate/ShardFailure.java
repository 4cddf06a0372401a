package org.atomicshards.hibernate;

import java.util.Objects;

/**
 * One shard that did not answer a fan-out query, and why.
 *
 * @param shard the shard; never null
 * @param cause what went wrong: a {@link ShardTimeoutException}, the JDBC/Hibernate exception, or a
 *              {@link java.util.concurrent.CancellationException} when the query was cancelled; never null
 */
public record ShardFailure(ShardId shard, Throwable cause) {

    public ShardFailure {
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(cause, "cause");
    }

    /** {@code "s2 (ShardTimeoutException: ...)"}: the shard and the cause's type and message. */
    public String describe() {
        return shard + " (" + cause.getClass().getSimpleName() + ": " + cause.getMessage() + ")";
    }
}
