package org.atomicshards.cli.internal;

import java.time.Duration;
import java.util.Optional;

import org.atomicshards.hibernate.admin.MoveProgress;

/**
 * The time left of a move, estimated from its batches. The runtime's {@link MoveProgress#eta()} follows the copy
 * rate only, while every batch also pays a fixed cost (the freeze, the verification, the switch); the batches are
 * planned up front and hold about as many virtual shards each, so the time per finished batch is the better guide
 * for the whole move. A resumed move counts from the batch it resumed at.
 */
final class MoveEstimate {

    private String operationId;
    private int firstBatch;

    /** The estimate after {@code progress}; empty until the move has finished a batch in this run. */
    Optional<Duration> timeLeft(MoveProgress progress) {
        if (!progress.operationId().equals(operationId)) {
            operationId = progress.operationId();
            firstBatch = progress.batch();
        }
        int finished = progress.batch() - firstBatch;
        if (finished <= 0) {
            return Optional.empty();
        }
        int left = Math.max(0, progress.batches() - progress.batch());
        return Optional.of(progress.elapsed().multipliedBy(left).dividedBy(finished));
    }
}
