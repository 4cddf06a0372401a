package org.atomicshards.hibernate;

/**
 * An operation that needs one shard (persist, find, a lock, a transaction, an update query) was called on the
 * fan-out {@code EntityManager}, which is not bound to any shard. Only read queries can run on it.
 */
public class UnboundEntityManagerException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public UnboundEntityManagerException(String operation) {
        super("EntityManager." + operation + " needs a shard, but this EntityManager is not bound to one: it only"
                + " runs read queries across all shards. Run it in a unit of work bound to the shard key instead.");
    }
}
