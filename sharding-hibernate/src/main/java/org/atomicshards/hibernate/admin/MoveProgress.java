package org.atomicshards.hibernate.admin;

import java.time.Duration;

/**
 * A snapshot of a running move, given to {@link MoveOptions#listener()} after every copied chunk and batch.
 *
 * @param operationId the move's id
 * @param batch the batch in progress (0-based) and {@code batches} their number
 * @param unitsCopied units copied so far (a unit re-copied in catch-up counts again)
 * @param unitsTotal units to move: those found in the batches begun (a batch's units are found when it begins, and
 *                   units created while it copies are added), extrapolated to the batches not begun yet
 * @param rowsCopied rows copied so far
 * @param elapsed time since the move started
 * @param unitsPerSecond copy rate so far
 * @param eta estimated time left, from the rate of first copies so far and the units left; {@link Duration#ZERO} when
 *            done
 */
public record MoveProgress(String operationId, int batch, int batches, long unitsCopied, long unitsTotal,
                           long rowsCopied, Duration elapsed, double unitsPerSecond, Duration eta) {

    /** Receives progress snapshots; called on the moving thread, so it must return quickly. */
    @FunctionalInterface
    public interface Listener {
        void onProgress(MoveProgress progress);
    }
}
