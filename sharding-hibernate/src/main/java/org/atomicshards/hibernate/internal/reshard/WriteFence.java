package org.atomicshards.hibernate.internal.reshard;

import java.util.BitSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.hibernate.Session;
import org.hibernate.SessionEventListener;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

/**
 * Makes every write of a unit pass the ownership fence of the unit's virtual shard inside the writing transaction,
 * however its session was opened: a unit of work of the factory, a session the application opened
 * ({@code openSession}), a Spring transaction. The guard calls {@link #beforeWrite} before each insert, update,
 * upsert and delete of a unit's entity; the first write of a virtual shard in a transaction enters the fence there
 * (the locked read that holds off the mover's freeze until commit, and the change logged while the virtual shard's
 * units are copied), later writes find it entered. A unit of work of the factory enters its own virtual shard when it
 * begins ({@link #enterUnit}), before any user code.
 *
 * <p>A unit on a consistent-hash ring has no virtual shard: its writes enter the shard's ring row for the unit, with
 * the map version read before the key is routed again here ({@link OwnershipFence}).
 *
 * <p>Writes Hibernate does not see (native SQL, bulk updates) are fenced only by the unit of work they run in.
 *
 * <p>A connection that holds a write lease ({@link ConnectionLeases}) enters no fence: no operation changes ownership
 * on its shard before its session has ended.
 *
 * <p>Thread-safe.
 */
public final class WriteFence {

    private final OwnershipFence fence;
    private final ConnectionLeases leases;
    private final CachedShardDirectory directory;
    private final Map<SharedSessionContractImplementor, Entered> enteredBySession = new ConcurrentHashMap<>();

    public WriteFence(OwnershipFence fence, ConnectionLeases leases, CachedShardDirectory directory) {
        this.fence = fence;
        this.leases = leases;
        this.directory = directory;
    }

    /** The fence all writes pass. */
    public OwnershipFence ownership() {
        return fence;
    }

    /**
     * Enters the fence of the target {@code target} gives (null, or a null target: nothing to fence) for a unit of work
     * that just began its transaction in {@code session}, before its work runs. A leased connection enters nothing, and
     * the target is not built.
     *
     * @throws FenceRejection if {@code shard} does not own the target or is switching it (the caller may retry: no
     *         user code ran)
     */
    public void enterUnit(Session session, ShardId shard, Supplier<FenceTarget> target) {
        SharedSessionContractImplementor implementor = (SharedSessionContractImplementor) session;
        if (target == null || leased(implementor)) {
            return;
        }
        FenceTarget built = target.get();
        if (built != null && built.fenced()) {
            session.doWork(connection -> fence.enter(connection, shard, built));
            entered(implementor, built);
        }
    }

    /**
     * Called before Hibernate writes an entity of {@code unit} with {@code key} in {@code session} on {@code shard}
     * (the guard has checked that the key belongs there): enters the fence of the key's virtual shard unless this
     * transaction already has.
     *
     * @throws ShardMovingException (retryable) if the shard no longer owns the key's virtual shard or is switching it;
     *         nothing of the transaction will commit
     */
    public void beforeWrite(SharedSessionContractImplementor session, ShardId shard, UnitRoutingImpl unit,
                            Object key) {
        if (unit.placement().onRing()) {
            beforeRingWrite(session, shard, unit, key);
            return;
        }
        int bucket = unit.placement().virtualShardOf(key);
        if (bucket < 0 || leased(session)) {
            return;
        }
        boolean perUnit = unit.placement().recordsPlacements();
        Entered entered = enteredBySession.get(session);
        if (entered != null && !perUnit && entered.buckets.get(bucket)) {
            return; // the common case, decided without building the target
        }
        enter(session, shard, FenceTarget.of(unit, bucket, key), entered, "Virtual shard " + bucket + " of key " + key,
                bucket);
    }

    /**
     * {@link #beforeWrite} of a unit on a consistent-hash ring: its shard's ring row, with the map version read before
     * the key is routed again here (the guard routed it with a map that may have been older).
     */
    private void beforeRingWrite(SharedSessionContractImplementor session, ShardId shard, UnitRoutingImpl unit,
                                 Object key) {
        int mapVersion = unit.placement().mapVersion();
        if (!shard.equals(unit.ownerOf(key))) {
            throw new ShardMovingException("Key " + key + " of unit " + unit.root().getSimpleName() + " moved off "
                    + "shard '" + shard + "' as its consistent-hash ring changed. The write was refused and nothing of "
                    + "this transaction will commit; run it again", SelectionPolicy.NO_VIRTUAL_SHARD);
        }
        if (leased(session)) {
            return;
        }
        enter(session, shard, FenceTarget.onRing(unit, key, mapVersion), enteredBySession.get(session),
                "Key " + key + " of unit " + unit.root().getSimpleName(), SelectionPolicy.NO_VIRTUAL_SHARD);
    }

    private void enter(SharedSessionContractImplementor session, ShardId shard, FenceTarget target, Entered entered,
                       String what, int bucket) {
        if (entered != null && entered.has(target)) {
            return;
        }
        try {
            session.doWork(connection -> fence.enter(connection, shard, target));
        } catch (FenceRejection rejection) {
            if (rejection.reason() == FenceRejection.Reason.STALE) {
                directory.refresh();
            }
            throw new ShardMovingException(what + " is being moved: shard '"
                    + shard + "' " + (rejection.reason() == FenceRejection.Reason.STALE ? "no longer owns it"
                    : "is handing it over") + ". The write was refused and nothing of this transaction will commit; "
                    + "run it again", bucket);
        }
        entered(session, target);
    }

    /** Whether the session's connection holds a write lease: then its transaction enters no fence. */
    private boolean leased(SharedSessionContractImplementor session) {
        return leases.enabled() && leases.holds(session.getJdbcCoordinator().getLogicalConnection()
                .getPhysicalConnection());
    }

    private void entered(SharedSessionContractImplementor session, FenceTarget target) {
        if (!session.isTransactionInProgress()) {
            return; // each statement commits on its own: the next write must enter again
        }
        enteredBySession.computeIfAbsent(session, this::watch).add(target);
    }

    private Entered watch(SharedSessionContractImplementor session) {
        Entered entered = new Entered(session);
        session.getEventListenerManager().addListener(entered);
        return entered;
    }

    /**
     * What a session's current transaction has entered: virtual shards, and the units that can move alone (each has a
     * fence row of its own); forgotten as the transaction ends, dropped as the session closes.
     */
    private final class Entered implements SessionEventListener {

        private static final long serialVersionUID = 1L;

        private final transient SharedSessionContractImplementor session;
        private final transient BitSet buckets = new BitSet();
        private final transient Set<String> units = new HashSet<>();

        private Entered(SharedSessionContractImplementor session) {
            this.session = session;
        }

        boolean has(FenceTarget target) {
            if (target.onRing()) {
                return units.contains(target.unitName() + '\u0000' + target.keyText());
            }
            return buckets.get(target.bucket())
                    && (!target.perUnit() || units.contains(target.unitName() + '\u0000' + target.keyText()));
        }

        void add(FenceTarget target) {
            if (!target.onRing()) {
                buckets.set(target.bucket());
            }
            if (target.perUnit() || target.onRing()) {
                units.add(target.unitName() + '\u0000' + target.keyText());
            }
        }

        @Override
        public void transactionCompletion(boolean successful) {
            buckets.clear();
            units.clear();
        }

        @Override
        public void end() {
            enteredBySession.remove(session);
        }
    }
}
