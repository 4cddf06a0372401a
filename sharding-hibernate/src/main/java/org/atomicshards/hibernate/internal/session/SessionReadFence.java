package org.atomicshards.hibernate.internal.session;

import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.guard.ReadGuard;
import org.atomicshards.hibernate.internal.reshard.fence.FenceRejection;
import org.atomicshards.hibernate.internal.reshard.fence.FenceTarget;
import org.atomicshards.hibernate.internal.reshard.fence.WriteFence;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

/**
 * Confirms a read by id in a session bound to a shard: that the shard holds the unit the id names, before the read (a
 * unit may still be arriving there) and after it (a release deletes a unit's rows and its claim in one transaction, so
 * a claim found after the rows means they were read before any release). A session whose transaction entered the
 * unit's fence, or whose connection holds a write lease, needs no confirmation: no ownership changes under it.
 *
 * <p>So a session the application opened on a shard its instance's old map names reports the move instead of
 * answering that the unit does not exist: {@link ShardMovingException}, retryable, after refreshing the map.
 * Thread-safe.
 */
final class SessionReadFence implements ReadGuard.Confirmation {

    private final ShardRouterImpl router;
    private final IdRouting ids;
    private final CachedShardDirectory directory;
    private final WriteFence writeFence;
    /** The session whose reads its caller confirms itself ({@link #confirmedByCaller}), on this thread. */
    private final ThreadLocal<SharedSessionContractImplementor> confirmedByCaller = new ThreadLocal<>();

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
            throw refused(rejection, type, id, shard);
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

    private ShardMovingException refused(FenceRejection rejection, Class<?> type, Object id, ShardId shard) {
        String what = type.getSimpleName() + "#" + id;
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
