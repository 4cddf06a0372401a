package org.atomicshards.hibernate.internal.reshard.move;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveProgress;
import org.atomicshards.hibernate.internal.reshard.journal.LeaseHeartbeat;
import org.atomicshards.hibernate.internal.reshard.journal.MoveJournal;
import org.atomicshards.hibernate.internal.reshard.journal.OperationLost;

/**
 * What one run of a move has seen and done: its batch, its figures and the map version its last switch wrote, with the
 * token that every journal write of the run is conditional on and the heartbeat that keeps its lease. Used by one
 * thread.
 */
public final class MoveRun {

    final MoveJournal.Move move;
    /** The run's token, which the journal names as the operation's owner while the run holds it. */
    final String token;
    /** The run's token on the shards: every transaction in which the run changes a shard checks it first. */
    final RunToken shardToken;
    LeaseHeartbeat heartbeat;
    final MoveOptions options;
    final Instant started = Instant.now();
    final List<RowCopier> copiers;
    final List<Duration> pauses = new ArrayList<>();
    int batches;
    int batch;
    long unitsCopied;
    long unitsTotal;
    int batchesScanned;
    long unitsCopiedOnce;
    long rowsCopied;
    long unitsMoved;
    long rowsMoved;
    int mapVersion;

    MoveRun(MoveJournal.Move move, MoveOptions options, List<RowCopier> copiers) {
        this.move = move;
        this.token = move.owner();
        this.shardToken = new RunToken(move.id(), token);
        this.options = options;
        this.copiers = copiers;
    }

    Instant lease() {
        return Instant.now().plus(options.lease());
    }

    /**
     * Returns if the run still holds its operation.
     *
     * @throws OperationLost if it does not: the run stops before its next step
     */
    void ensureHeld() {
        if (heartbeat != null) {
            heartbeat.ensureHeld();
        }
    }

    /** The test hook of step {@code name} ({@link MoveFaults}), then {@link #ensureHeld}. */
    void step(String name) {
        MoveFaults.at(name);
        ensureHeld();
    }

    void progress() {
        MoveProgress.Listener listener = options.listener();
        if (listener == null) {
            return;
        }
        Duration elapsed = Duration.between(started, Instant.now());
        long millis = Math.max(1, elapsed.toMillis());
        double rate = unitsCopied * 1000.0 / millis;
        // a batch's units are found when it begins: those not begun are assumed to hold as many as those begun
        long expected = batchesScanned == 0 ? unitsTotal
                : Math.max(unitsTotal, unitsTotal * Math.max(batches, batchesScanned) / batchesScanned);
        long left = Math.max(0, expected - unitsCopiedOnce);
        double firstCopyRate = unitsCopiedOnce * 1000.0 / millis;
        Duration eta = firstCopyRate <= 0 ? Duration.ZERO
                : Duration.ofMillis((long) (left / firstCopyRate * 1000));
        listener.onProgress(new MoveProgress(move.id(), batch, batches, unitsCopied, expected, rowsCopied,
                elapsed, rate, eta));
    }
}
