package org.atomicshards.cli.internal;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.atomicshards.hibernate.admin.MoveProgress;

/**
 * A progress bar per move on the terminal (me.tongfei:progressbar), drawn on stderr: the batches finished of the
 * batches planned (the runtime finds a batch's units only when it starts it, so units cannot be the bar's scale),
 * with the units and rows copied and the copy rate beside it, and {@link MoveEstimate}'s time left.
 */
final class ProgressBarDisplay implements ProgressDisplay {

    private final MoveEstimate estimate = new MoveEstimate();
    private volatile Optional<Duration> eta = Optional.empty();
    private ProgressBar bar;
    private String operationId;

    @Override
    public synchronized void onProgress(MoveProgress progress) {
        if (bar == null || !progress.operationId().equals(operationId)) {
            finished(); // a command's moves run one after the other: a new one means the last one finished
            operationId = progress.operationId();
            bar = new ProgressBarBuilder()
                    .setTaskName("move " + ProgressDisplay.shortId(operationId))
                    .setInitialMax(Math.max(1, progress.batches()))
                    .setUnit(" batches", 1)
                    .setStyle(ProgressBarStyle.COLORFUL_UNICODE_BLOCK)
                    .setUpdateIntervalMillis(250)
                    .setEtaFunction(state -> eta)
                    .setConsumer(new ConsoleProgressBarConsumer(System.err))
                    .build();
        }
        eta = estimate.timeLeft(progress);
        bar.stepTo(progress.batch());
        bar.setExtraMessage(String.format(Locale.ROOT, "%d units %d rows %.0f units/s", progress.unitsCopied(),
                progress.rowsCopied(), progress.unitsPerSecond()));
    }

    @Override
    public synchronized void finished() {
        if (bar != null) {
            eta = Optional.of(Duration.ZERO);
            bar.stepTo(bar.getMax());
        }
        close();
    }

    @Override
    public synchronized void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
