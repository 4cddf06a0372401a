package org.atomicshards.hibernate;

/**
 * A unit of work could not run because its virtual shard is being switched to another shard by an online move, and
 * the switch did not finish within {@code atomicshards.resharding.write_pause_ms}. Nothing was written and no user
 * code ran: the unit of work can be run again (it will then route to the new owner).
 */
public class ShardMovingException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    private final int virtualShard;

    public ShardMovingException(String message, int virtualShard) {
        super(message);
        this.virtualShard = virtualShard;
    }

    /** The virtual shard being moved. */
    public int virtualShard() {
        return virtualShard;
    }

    /** Always true: running the unit of work again is safe. */
    public boolean isRetryable() {
        return true;
    }
}
