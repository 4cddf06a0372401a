package org.atomicshards.hibernate.internal.session;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.guard.QueryReadGuard;
import org.atomicshards.hibernate.internal.guard.ReadGuard;
import org.atomicshards.hibernate.internal.reshard.fence.FenceRejection;
import org.atomicshards.hibernate.internal.reshard.fence.FenceTarget;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.fence.WriteFence;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.hibernate.SessionEventListener;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

/**
 * Confirms a read by id in a session bound to a shard: that the shard holds the unit the id names, before the read (a
 * unit may still be arriving there) and after it (a release deletes a unit's rows and its claim in one transaction, so
 * a claim found after the rows means they were read before any release). In a session opened for a unit
 * ({@link #openedFor}), every select (queries included) is confirmed after it ran, for that unit. A session whose
 * transaction entered the unit's fence, or whose connection holds a write lease taken under the map the session was
 * routed with, needs no confirmation: no ownership changes under it.
 *
 * <p>In a session opened on a shard ({@link #openedOn}: {@code openSession(ShardId)}, and the sessions of Spring
 * scopes), every select is confirmed after it ran for the whole shard: that no units left or reached it under a newer
 * map than the one the session was opened (or its scope resolved) with ({@link OwnershipFence#changedVersion}). Such a
 * change is the only way a unit's rows leave or reach a shard, so a session that passes read every unit its map places
 * there.
 *
 * <p>So a session the application opened on a shard its instance's old map names reports the move instead of
 * answering that the unit does not exist: {@link ShardMovingException}, retryable, after refreshing the map.
 * Thread-safe.
 */
final class SessionReadFence implements ReadGuard.Confirmation, QueryReadGuard.Confirmation {

    /** What a session was opened for, which its selects are confirmed against. */
    private sealed interface OpenedFor permits UnitSession, ShardSession {
    }

    /** A session opened for a unit: its shard, the map version it was routed with, and the unit's fence target. */
    private record UnitSession(ShardId shard, int routedWith, FenceTarget target) implements OpenedFor {
    }

    /** A session opened on a shard with the map of version {@code openedWith}. */
    private record ShardSession(int openedWith) implements OpenedFor {
    }

    private final ShardRouterImpl router;
    private final IdRouting ids;
    private final CachedShardDirectory directory;
    private final WriteFence writeFence;
    /** The session whose reads its caller confirms itself ({@link #confirmedByCaller}), on this thread. */
    private final ThreadLocal<SharedSessionContractImplementor> confirmedByCaller = new ThreadLocal<>();
    /** The open sessions whose selects are confirmed, with what they were opened for. */
    private final Map<SharedSessionContractImplementor, OpenedFor> sessions = new ConcurrentHashMap<>();

    SessionReadFence(ShardRouterImpl router, IdRouting ids, CachedShardDirectory directory, WriteFence writeFence) {
        this.router = router;
        this.ids = ids;
        this.directory = directory;
        this.writeFence = writeFence;
    }

    @Override
    public void confirm(SharedSessionContractImplementor session, String entityName, Object id) {
        if (id == null || confirmedByCaller.get() == session
                || !(session.getTenantIdentifierValue() instanceof ShardId shard) || writeFence.leased(session)) {
            return; // a leased connection (the common case between operations) decides it before anything is built
        }
        Class<?> type = session.getFactory().getMappingMetamodel().getEntityDescriptor(entityName).getMappedClass();
        UnitRoutingImpl unit = router.unitOf(type);
        if (unit == null) {
            return; // reference data, or an entity of no unit
        }
        FenceTarget target = FenceTargets.ofId(ids.routeOf(type), unit, id, directory.version());
        if (target == null || !target.fenced() || writeFence.entered(session, target)) {
            return;
        }
        try {
            writeFence.ownership().confirmRead(session, shard, target);
        } catch (FenceRejection rejection) {
            throw refused(rejection, type.getSimpleName() + "#" + id, shard);
        }
    }

    /**
     * Notes that {@code session} was opened on {@code shard} for {@code target}'s unit, routed with the map of version
     * {@code routedWith}: from now on every select in it is confirmed for that unit, until the session ends.
     */
    void openedFor(SharedSessionContractImplementor session, ShardId shard, int routedWith, FenceTarget target) {
        if (target == null || !target.fenced()) {
            return;
        }
        confirmUntilItEnds(session, new UnitSession(shard, routedWith, target));
    }

    /**
     * Notes that {@code session} was opened on a shard with the map of version {@code openedWith}: from now on every
     * select in it confirms that the shard's ownership did not change under a newer map, until the session ends.
     */
    void openedOn(SharedSessionContractImplementor session, int openedWith) {
        confirmUntilItEnds(session, new ShardSession(openedWith));
    }

    private void confirmUntilItEnds(SharedSessionContractImplementor session, OpenedFor openedFor) {
        sessions.put(session, openedFor);
        session.getEventListenerManager().addListener(new SessionEventListener() {
            private static final long serialVersionUID = 1L;

            @Override
            public void end() {
                sessions.remove(session);
            }
        });
    }

    @Override
    public void afterSelect(SharedSessionContractImplementor session) {
        OpenedFor openedFor = sessions.get(session);
        if (openedFor instanceof ShardSession onShard) {
            confirmShard(session, onShard.openedWith());
        } else if (openedFor instanceof UnitSession unit) {
            confirmUnit(session, unit);
        }
    }

    private void confirmUnit(SharedSessionContractImplementor session, UnitSession unit) {
        if ((writeFence.leased(session) && directory.version() <= unit.routedWith())
                || writeFence.entered(session, unit.target())) {
            return;
        }
        try {
            writeFence.ownership().confirmRead(session, unit.shard(), unit.target());
        } catch (FenceRejection rejection) {
            throw refused(rejection, "unit " + unit.target().unitName() + " key " + unit.target().keyText(),
                    unit.shard());
        }
    }

    private void confirmShard(SharedSessionContractImplementor session, int openedWith) {
        if (!(session.getTenantIdentifierValue() instanceof ShardId shard)
                || (writeFence.leased(session) && directory.version() <= openedWith)) {
            return; // a lease taken under the session's map: no ownership changed there since, nor will meanwhile
        }
        OwnershipFence ownership = writeFence.ownership();
        if (ownership == null) {
            return; // no resharding here: ownership never changes
        }
        ownership.prepare(shard);
        int changedUnder = session.doReturningWork(OwnershipFence::changedVersion);
        if (changedUnder > openedWith) {
            directory.refresh();
            throw new ShardMovingException("Shard '" + shard + "' changed which units it holds under map version "
                    + changedUnder + ", after this session was opened with map version " + openedWith + ": what it "
                    + "selected may have moved. The map has been refreshed; run it again in a new session on the "
                    + "shard that holds it now", SelectionPolicy.NO_VIRTUAL_SHARD);
        }
    }

    /** Runs {@code read}, whose reads in {@code session} the caller confirms itself. */
    <R> R confirmedByCaller(SharedSessionContractImplementor session, Supplier<R> read) {
        confirmedByCaller.set(session);
        try {
            return read.get();
        } finally {
            confirmedByCaller.remove();
        }
    }

    /** @param what what was read, for the message ("User#12", "unit User key 12") */
    private ShardMovingException refused(FenceRejection rejection, String what, ShardId shard) {
        if (rejection.reason() == FenceRejection.Reason.WAIT) {
            return new ShardMovingException(what + " is being moved to shard '" + shard + "' and is not readable "
                    + "there yet. Nothing was read; run it again", rejection.bucket());
        }
        if (rejection.unit() != null) {
            directory.forgetPlacement(rejection.unit().unitName(), rejection.unit().keyText());
        }
        directory.refresh();
        return new ShardMovingException("Shard '" + shard + "' no longer holds " + what + ": it was moved, and the "
                + "map this session was opened with was out of date (it has been refreshed). Nothing was read; run it "
                + "again on the shard that holds it now", rejection.bucket());
    }
}
