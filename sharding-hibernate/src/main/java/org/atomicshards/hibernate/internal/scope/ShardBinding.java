package org.atomicshards.hibernate.internal.scope;

import java.util.function.Supplier;

import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.ShardId;

/**
 * The shard the current thread is bound to, and why: one stack of bindings per thread, innermost first.
 * <ul>
 *   <li>{@link Reason#UNIT_OF_WORK}: one shard and one local transaction. Entering a unit of work on another shard
 *       inside it fails with the one {@link #crossShard cross-shard message}; entering one on the same shard joins
 *       it (no new binding). A unit of work belongs to one factory (its {@code owner}); a factory's unit of work may
 *       hold its open session, a Spring-pinned one holds none (Spring binds its entity managers lazily).
 *   <li>{@link Reason#SCOPE}: the public {@code ShardScope}. Sessions opened without naming a shard use it; a nested
 *       scope may name another shard. Belongs to every factory.
 *   <li>{@link Reason#REPLICATION}: a reference-data replication, on every shard; the guards let reference data be
 *       written while it runs.
 * </ul>
 * Bindings are thread-bound: work handed to other threads does not inherit them.
 */
public final class ShardBinding {

    /** Why a thread is bound. */
    public enum Reason { UNIT_OF_WORK, SCOPE, REPLICATION }

    /** What the caller may rely on after a rejected cross-shard operation. */
    public enum Outcome {
        /** The operation was rejected before it ran anything. */
        NOTHING_RUN("Nothing was run by this call."),
        /** The operation was rejected and the unit of work's transaction was marked rollback-only. */
        NOTHING_COMMITS("Nothing of this unit of work will commit.");

        private final String text;

        Outcome(String text) {
            this.text = text;
        }
    }

    private static final ThreadLocal<ShardBinding> CURRENT = new ThreadLocal<>();

    private final Reason reason;
    private final ShardId shard;
    private final Object owner;
    private final Object session;
    private final ShardBinding outer;
    /** The map version read before the shard was resolved; {@link #UNKNOWN_MAP_VERSION} when not recorded. */
    private final int mapVersion;

    /** The {@link #mapVersion(Object)} of a binding that did not record one. */
    public static final int UNKNOWN_MAP_VERSION = -1;

    private ShardBinding(Reason reason, ShardId shard, Object owner, Object session, ShardBinding outer,
                         int mapVersion) {
        this.reason = reason;
        this.shard = shard;
        this.owner = owner;
        this.session = session;
        this.outer = outer;
        this.mapVersion = mapVersion;
    }

    private ShardBinding(Reason reason, ShardId shard, Object owner, Object session, ShardBinding outer) {
        this(reason, shard, owner, session, outer, UNKNOWN_MAP_VERSION);
    }

    public Reason reason() {
        return reason;
    }

    /** The bound shard; null for a replication (every shard). */
    public ShardId shard() {
        return shard;
    }

    /** The open session of a factory's unit of work, or null. */
    public Object session() {
        return session;
    }

    /** The shard the thread works on for {@code owner}: of the innermost scope or unit of work; null if none. */
    public static ShardId shard(Object owner) {
        for (ShardBinding b = CURRENT.get(); b != null; b = b.outer) {
            if (b.shard != null && (b.owner == null || owner == null || b.owner == owner)) {
                return b.shard;
            }
        }
        return null;
    }

    /**
     * The map version read before the shard of {@code owner}'s innermost binding was resolved from a unit's key, or
     * {@link #UNKNOWN_MAP_VERSION}: when the map has moved on since, the unit may have moved off that shard.
     */
    public static int mapVersion(Object owner) {
        for (ShardBinding b = CURRENT.get(); b != null; b = b.outer) {
            if (b.shard != null && (b.owner == null || owner == null || b.owner == owner)) {
                return b.mapVersion;
            }
        }
        return UNKNOWN_MAP_VERSION;
    }

    /** The innermost unit of work of {@code owner} on this thread, or null. */
    public static ShardBinding unitOfWork(Object owner) {
        for (ShardBinding b = CURRENT.get(); b != null; b = b.outer) {
            if (b.reason == Reason.UNIT_OF_WORK && b.owner == owner) {
                return b;
            }
        }
        return null;
    }

    /** Whether the thread runs a reference-data replication. */
    public static boolean replicating() {
        for (ShardBinding b = CURRENT.get(); b != null; b = b.outer) {
            if (b.reason == Reason.REPLICATION) {
                return true;
            }
        }
        return false;
    }

    /**
     * The enclosing unit of work of {@code owner} that work on {@code shard} joins, or null when there is none.
     *
     * @param what what the work does, for the message, e.g. "persist Order"; asked only for that message
     * @throws CrossShardUnitOfWorkException if the enclosing unit of work is on another shard
     */
    public static ShardBinding join(Object owner, ShardId shard, Supplier<String> what) {
        ShardBinding enclosing = unitOfWork(owner);
        if (enclosing != null) {
            requireSameShard(enclosing.shard, shard, what, Outcome.NOTHING_RUN);
        }
        return enclosing;
    }

    /**
     * Runs {@code work} in a new unit of work of {@code owner} on {@code shard}, holding {@code session} (may be
     * null); call {@link #join} first.
     */
    public static <T> T inNewUnitOfWork(Object owner, ShardId shard, Object session, Supplier<T> work) {
        return inNewUnitOfWork(owner, shard, session, UNKNOWN_MAP_VERSION, work);
    }

    /**
     * As {@link #inNewUnitOfWork(Object, ShardId, Object, Supplier)} for a shard resolved from a unit's key with the
     * map of {@code mapVersion} or a newer one ({@link #mapVersion(Object)}).
     */
    public static <T> T inNewUnitOfWork(Object owner, ShardId shard, Object session, int mapVersion,
                                        Supplier<T> work) {
        return bound(new ShardBinding(Reason.UNIT_OF_WORK, shard, owner, session, CURRENT.get(), mapVersion), work);
    }

    /** Runs {@code work} in an explicit scope of {@code shard} (any factory), restoring the previous one after. */
    public static <T> T inScope(ShardId shard, Supplier<T> work) {
        return bound(new ShardBinding(Reason.SCOPE, shard, null, null, CURRENT.get()), work);
    }

    /** Runs {@code work} as a reference-data replication of {@code owner}; call {@link #requireNoOpenUnitOfWork} first. */
    public static void replicating(Object owner, Runnable work) {
        bound(new ShardBinding(Reason.REPLICATION, null, owner, null, CURRENT.get()), () -> {
            work.run();
            return null;
        });
    }

    /**
     * Rejects an operation on every shard (asking them, replicating) inside a unit of work of {@code owner} that
     * holds an open session: its transaction is bound to one shard.
     */
    public static void requireNoOpenUnitOfWork(Object owner, String what) {
        ShardBinding unit = unitOfWork(owner);
        if (unit != null && unit.session != null) {
            throw crossShard(unit.shard, null, what, Outcome.NOTHING_RUN);
        }
    }

    /**
     * The one cross-shard check: {@code target} must be {@code bound} when the work is bound to a shard.
     *
     * @param bound the shard of the unit of work, or null when there is none (nothing to check)
     * @param what  what was attempted, for the message; asked only when the check fails
     * @throws CrossShardUnitOfWorkException if {@code bound} is another shard
     */
    public static void requireSameShard(ShardId bound, ShardId target, Supplier<String> what, Outcome outcome) {
        if (bound != null && !bound.equals(target)) {
            throw crossShard(bound, target, what.get(), outcome);
        }
    }

    /**
     * The one cross-shard message.
     *
     * @param target the shard the operation needs; null when it needs every shard
     * @param what   what was attempted, as a verb phrase ("find Order#12")
     */
    public static CrossShardUnitOfWorkException crossShard(ShardId bound, ShardId target, String what,
                                                           Outcome outcome) {
        return new CrossShardUnitOfWorkException("Cannot " + what + (target == null ? " on every shard" : " on shard '"
                + target + "'") + " inside the unit of work bound to shard '" + bound + "': a unit of work is one "
                + "shard and one local transaction. " + outcome.text + " Fix: do it in its own unit of work before or "
                + "after this one (in Spring, a separate service call with its own @ShardKeyParam); a saga for "
                + "cross-unit workflows");
    }

    private static <T> T bound(ShardBinding binding, Supplier<T> work) {
        CURRENT.set(binding);
        try {
            return work.get();
        } finally {
            // set, not remove(), even when no binding is left: a removed entry makes the next unit of work's first
            // get() create it again and sweep the thread's map (about 1.5 % of a small unit of work); a null value
            // holds nothing
            CURRENT.set(binding.outer);
        }
    }
}
