package org.atomicshards.hibernate.internal.reshard.fence;

import java.util.BitSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.lease.ConnectionLeases;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.hibernate.Session;
import org.hibernate.SessionEventListener;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Makes every write of a unit pass the ownership fence of the unit's virtual shard inside the writing transaction,
 * however its session was opened: a unit of work of the factory, a session the application opened
 * ({@code openSession}), a Spring transaction. The guard calls {@link #beforeWrite} before each insert, update,
 * upsert and delete of a unit's entity and each write of its collections; the first write of a virtual shard in a
 * transaction enters the fence there (the locked read that holds off the mover's freeze until commit), later writes
 * find it entered. While the virtual shard's units are copied, every row the transaction writes there is logged for
 * the move's catch-up ({@link WrittenRow}). A unit of work of the factory enters its own virtual shard when it begins
 * ({@link #enterUnit}), before any user code.
 *
 * <p>A unit on a consistent-hash ring has no virtual shard: its writes enter the shard's ring row for the unit, with
 * the map version read before the key is routed again here ({@link OwnershipFence}).
 *
 * <p>Writes Hibernate cannot attribute to units (bulk HQL and JPQL statements, native SQL) pass the fence of every claim
 * of their shard ({@link #beforeBulkWrite}).
 *
 * <p>A connection that holds a write lease ({@link ConnectionLeases}) enters no fence: no operation changes ownership
 * on its shard before its session has ended. Reads ask the same two questions ({@link #leased}, {@link #entered}) to
 * know whether they need confirming, and a session opened for a key confirms its shard first ({@link #confirmClaim}).
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
     * the target is not built, if the unit of work was routed with the map this instance holds now: a lease vouches
     * only for that map, so a unit of work routed with an older one ({@code routedWith}; the map was refreshed between
     * its routing and its lease) enters the fence like any other.
     *
     * @param routedWith the map version read before the unit of work's key was routed
     * @throws FenceRejection if {@code shard} does not own the target or is switching it (the caller may retry: no
     *         user code ran)
     */
    public void enterUnit(Session session, ShardId shard, int routedWith, Supplier<FenceTarget> target) {
        SharedSessionContractImplementor implementor = (SharedSessionContractImplementor) session;
        if (target == null || (leased(implementor) && directory.version() <= routedWith)) {
            return;
        }
        FenceTarget built = target.get();
        if (built != null && built.fenced()) {
            boolean moving = session.doReturningWork(connection -> fence.enter(connection, shard, built));
            entered(implementor, built, moving);
        }
    }

    /**
     * Called before Hibernate writes {@code row} of an entity of {@code unit} with {@code key} in {@code session} on
     * {@code shard} (the guard has checked that the key belongs there): enters the fence of the key's virtual shard
     * unless this transaction already has. While that virtual shard (or the unit, moving alone) is {@code MOVING},
     * every row the transaction writes there is logged for the move's catch-up.
     *
     * @throws ShardMovingException (retryable) if the shard no longer owns the key's virtual shard or is switching it;
     *         nothing of the transaction will commit
     */
    public void beforeWrite(SharedSessionContractImplementor session, ShardId shard, UnitRoutingImpl unit,
                            Object key, EntityPersister persister, Object id) {
        beforeWrite(session, shard, unit, key, persister, id, null);
    }

    /**
     * {@link #beforeWrite} of a write to a collection of an entity of {@code unit} with {@code key}: {@code row} says
     * what the change log names for it.
     */
    public void beforeCollectionWrite(SharedSessionContractImplementor session, ShardId shard, UnitRoutingImpl unit,
                                      Object key, WrittenRow row) {
        beforeWrite(session, shard, unit, key, null, null, row);
    }

    /**
     * @param row what to log, or null for the row of the entity of {@code persister} with {@code id} (built only when
     *            it must be logged: nothing is allocated on a leased connection or outside a move)
     */
    private void beforeWrite(SharedSessionContractImplementor session, ShardId shard, UnitRoutingImpl unit,
                             Object key, EntityPersister persister, Object id, WrittenRow row) {
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
            if (entered.moving.get(bucket)) {
                log(session, entered, FenceTarget.of(unit, bucket, key),
                        row != null ? row : WrittenRow.of(persister, id));
            }
            return; // the common case, decided without building the target
        }
        FenceTarget target = FenceTarget.of(unit, bucket, key);
        if (enter(session, shard, target, entered, "Virtual shard " + bucket + " of key " + key, bucket)) {
            log(session, enteredBySession.get(session), target, row != null ? row : WrittenRow.of(persister, id));
        }
    }

    /**
     * Called before Hibernate runs, in {@code session}, a write it cannot attribute to units: a bulk HQL or JPQL
     * statement ({@code executeUpdate}, Spring Data's {@code @Modifying} queries) or native SQL. Unless the session's
     * connection holds a write lease (no operation changes ownership on its shard meanwhile), the first such write of a
     * transaction enters the fence of every claim of the session's shard ({@link OwnershipFence#enterBulk}): the
     * virtual shards being copied are logged as changed whole, so the move's catch-up compares all their units again.
     *
     * @throws ShardMovingException (retryable) while the shard is switching a virtual shard, a unit or ring keys, and,
     *         on a connection without a write lease, for a write outside a transaction (its fence could not be held
     *         until it commits); nothing of the transaction will commit
     */
    public void beforeBulkWrite(SharedSessionContractImplementor session) {
        if (!(session.getTenantIdentifierValue() instanceof ShardId shard) || leased(session)) {
            return;
        }
        Entered entered = enteredBySession.get(session);
        if (entered != null && entered.bulk) {
            return;
        }
        if (!session.isTransactionInProgress()) {
            throw new ShardMovingException("A bulk or native write on shard '" + shard + "' outside a transaction "
                    + "cannot be fenced while the shard's ownership may change: it was refused. Fix: run it in a "
                    + "transaction", SelectionPolicy.NO_VIRTUAL_SHARD);
        }
        try {
            session.doWork(connection -> fence.enterBulk(connection, shard));
        } catch (FenceRejection rejection) {
            throw new ShardMovingException("A bulk or native write on shard '" + shard + "' could touch "
                    + (rejection.unit() == null ? "virtual shard " + rejection.bucket()
                    : "unit " + rejection.unit().unitName() + " key " + rejection.unit().keyText())
                    + ", which the shard is handing over. The write was refused and nothing of this transaction "
                    + "will commit; run it again", rejection.bucket());
        }
        enteredBySession.computeIfAbsent(session, this::watch).bulk = true;
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

    /**
     * Enters {@code target}'s fence unless the transaction has.
     *
     * @return whether the target is being copied: the write must be logged
     */
    private boolean enter(SharedSessionContractImplementor session, ShardId shard, FenceTarget target, Entered entered,
                          String what, int bucket) {
        if (entered != null && entered.has(target)) {
            return entered.copying(target);
        }
        boolean moving;
        try {
            moving = session.doReturningWork(connection -> fence.enter(connection, shard, target));
        } catch (FenceRejection rejection) {
            if (rejection.reason() == FenceRejection.Reason.STALE) {
                directory.refresh();
            }
            throw new ShardMovingException(what + " is being moved: shard '"
                    + shard + "' " + (rejection.reason() == FenceRejection.Reason.STALE ? "no longer owns it"
                    : "is handing it over") + ". The write was refused and nothing of this transaction will commit; "
                    + "run it again", bucket);
        }
        entered(session, target, moving);
        return moving;
    }

    /**
     * Logs {@code row} of {@code target}'s unit, which this transaction entered while it was being copied (its share
     * lock keeps it so until commit), unless the transaction logged that row, or its whole unit, already: the move's
     * catch-up copies again exactly what the change log names.
     *
     * @param entered what the transaction entered; null outside a transaction (nothing is remembered)
     */
    private void log(SharedSessionContractImplementor session, Entered entered, FenceTarget target, WrittenRow row) {
        if (row.none()) {
            return;
        }
        ChangedRow changed = row.row();
        String unit = Entered.unitOf(target);
        String logged = changed == null ? unit : unit + '\u0000' + changed.table() + '\u0000' + changed.id();
        if (entered != null && (entered.logged.contains(unit) || entered.logged.contains(logged))) {
            return;
        }
        session.doWork(connection -> OwnershipFence.logChange(connection, target.bucket(), target.unitName(),
                target.keyText(), changed));
        if (entered != null) {
            entered.logged.add(logged);
        }
    }

    /**
     * Whether the session's current transaction entered {@code target}'s fence: its share lock holds off every change of
     * who holds the target's unit on the session's shard until the transaction ends.
     */
    public boolean entered(SharedSessionContractImplementor session, FenceTarget target) {
        Entered entered = enteredBySession.get(session);
        return entered != null && entered.has(target);
    }

    /**
     * Confirms that {@code shard} holds {@code target}'s unit now, before a session is opened there for the unit: read on
     * the shard's fence unless a connection of this instance holds a write lease there and the unit was routed with the
     * map this instance holds now ({@code routedWith}: a lease vouches only for that map).
     *
     * @param routedWith the map version read before the unit's key was routed to {@code shard}
     * @throws FenceRejection STALE if the shard does not own it (any more), WAIT if it is arriving there
     */
    public void confirmClaim(ShardId shard, int routedWith, FenceTarget target) {
        fence.confirmClaim(shard, target, connection -> {
            leases.check(shard, connection);
            return leases.holds(connection) && directory.version() <= routedWith;
        });
    }

    /**
     * Whether the session's connection holds a write lease: then its transaction enters no fence, and no ownership
     * changes on its shard while the lease lasts.
     */
    public boolean leased(SharedSessionContractImplementor session) {
        return leases.enabled() && leases.holds(session.getJdbcCoordinator().getLogicalConnection()
                .getPhysicalConnection());
    }

    private void entered(SharedSessionContractImplementor session, FenceTarget target, boolean moving) {
        if (!session.isTransactionInProgress()) {
            return; // each statement commits on its own: the next write must enter again
        }
        enteredBySession.computeIfAbsent(session, this::watch).add(target, moving);
    }

    private Entered watch(SharedSessionContractImplementor session) {
        Entered entered = new Entered(session);
        session.getEventListenerManager().addListener(entered);
        return entered;
    }

    /**
     * What a session's current transaction has entered: virtual shards (and which of them were {@code MOVING}), the
     * units that can move alone (each has a fence row of its own; and which of them were being copied) and the rows
     * and units it logged; forgotten as the transaction ends, dropped as the session closes.
     */
    private final class Entered implements SessionEventListener {

        private static final long serialVersionUID = 1L;

        private final transient SharedSessionContractImplementor session;
        private final transient BitSet buckets = new BitSet();
        private final transient BitSet moving = new BitSet();
        private final transient Set<String> units = new HashSet<>();
        private final transient Set<String> copyingUnits = new HashSet<>();
        private final transient Set<String> logged = new HashSet<>();
        /** Whether a write the library cannot attribute to units entered every claim of the shard. */
        private boolean bulk;

        private Entered(SharedSessionContractImplementor session) {
            this.session = session;
        }

        static String unitOf(FenceTarget target) {
            return target.unitName() + '\u0000' + target.keyText();
        }

        boolean has(FenceTarget target) {
            if (target.onRing()) {
                return units.contains(unitOf(target));
            }
            return buckets.get(target.bucket()) && (!target.perUnit() || units.contains(unitOf(target)));
        }

        /** Whether the writes of an entered target are logged: its virtual shard, or its unit moving alone, copied. */
        boolean copying(FenceTarget target) {
            if (target.onRing()) {
                return false; // the ring fence logged the unit as it entered
            }
            return target.perUnit() ? copyingUnits.contains(unitOf(target)) : moving.get(target.bucket());
        }

        /** @param copying whether {@link OwnershipFence#enter} found the target being copied */
        void add(FenceTarget target, boolean copying) {
            if (!target.onRing()) {
                buckets.set(target.bucket());
            }
            if (target.perUnit() || target.onRing()) {
                units.add(unitOf(target));
            }
            if (copying && !target.onRing()) {
                if (target.perUnit()) {
                    copyingUnits.add(unitOf(target));
                } else {
                    moving.set(target.bucket());
                }
            }
        }

        @Override
        public void transactionCompletion(boolean successful) {
            buckets.clear();
            moving.clear();
            units.clear();
            copyingUnits.clear();
            logged.clear();
            bulk = false;
        }

        @Override
        public void end() {
            enteredBySession.remove(session);
        }
    }
}
