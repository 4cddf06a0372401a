package org.atomicshards.hibernate;

import java.time.Duration;

/**
 * A shard did not answer a fan-out query within the query's timeout. The shard was abandoned without waiting for
 * it: its statement is cancelled and, if it does not end at once, its connection is aborted.
 */
public class ShardTimeoutException extends FanOutQueryException {

    private static final long serialVersionUID = 1L;

    private final ShardId shard;
    private final Duration timeout;

    public ShardTimeoutException(ShardId shard, Duration timeout) {
        super("Shard " + shard + " did not answer within " + timeout
                + "; it was abandoned (its statement cancelled, its connection aborted if it did not stop). Raise the"
                + " timeout (ShardedQuery.setTimeout, the hint jakarta.persistence.query.timeout or"
                + " FanOutSettings.timeout) if the shard is just slow.");
        this.shard = shard;
        this.timeout = timeout;
    }

    public ShardId shard() {
        return shard;
    }

    public Duration timeout() {
        return timeout;
    }
}
