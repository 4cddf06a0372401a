package org.atomicshards.cli.internal;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

import org.atomicshards.hibernate.admin.MoveProgress;

/**
 * Progress as plain lines, for logs and scripts: the first snapshot of each move, then at most one line per
 * {@code interval}, and the last snapshot when the move's batch ends or the display closes.
 *
 * <pre>move 1f0c2a9e: batch 3/13, 34 units, 134 rows copied, 9.2 units/s, 0:00:03 elapsed, ETA 0:00:13</pre>
 *
 * The ETA is {@link MoveEstimate}'s, {@code ?} until a batch has finished.
 */
final class ProgressLines implements ProgressDisplay {

    private final PrintWriter err;
    private final long intervalNanos;
    private final MoveEstimate estimate = new MoveEstimate();
    private String eta = "?";
    private MoveProgress last;
    private boolean lastShown;
    private long shownAt;

    ProgressLines(PrintWriter err, Duration interval) {
        this.err = err;
        this.intervalNanos = interval.toNanos();
    }

    @Override
    public synchronized void onProgress(MoveProgress progress) {
        boolean newMove = last == null || !last.operationId().equals(progress.operationId());
        if (newMove && last != null && !lastShown) {
            show(last);
        }
        boolean newBatch = !newMove && last.batch() != progress.batch();
        eta = estimate.timeLeft(progress).map(ProgressDisplay::clock).orElse("?");
        last = progress;
        lastShown = false;
        long now = System.nanoTime();
        if (newMove || newBatch || now - shownAt >= intervalNanos) {
            show(progress);
            shownAt = now;
        }
    }

    private void show(MoveProgress progress) {
        err.println(line(progress, eta));
        err.flush();
        lastShown = progress == last;
    }

    static String line(MoveProgress p, String eta) {
        return String.format(Locale.ROOT, "move %s: batch %d/%d, %d units, %d rows copied, %.1f units/s, %s elapsed, "
                        + "ETA %s", ProgressDisplay.shortId(p.operationId()), p.batch() + 1, Math.max(1, p.batches()),
                p.unitsCopied(), p.rowsCopied(), p.unitsPerSecond(), ProgressDisplay.clock(p.elapsed()), eta);
    }

    @Override
    public synchronized void close() {
        if (last != null && !lastShown) {
            show(last);
        }
    }
}
