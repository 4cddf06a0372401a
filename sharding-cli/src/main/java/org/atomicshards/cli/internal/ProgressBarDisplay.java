package org.atomicshards.cli.internal;

import java.time.Duration;
import java.util.Optional;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.atomicshards.hibernate.admin.MoveProgress;

/**
 * A progress bar per move on the terminal (me.tongfei:progressbar): units copied of units to move, the copy rate,
 * the rows and the batch, and the runtime's estimate of the time left.
 */
final class ProgressBarDisplay implements ProgressDisplay {

    private ProgressBar bar;
    private String operationId;
    private volatile Duration eta = Duration.ZERO;

    @Override
    public synchronized void onProgress(MoveProgress progress) {
        if (bar == null || !progress.operationId().equals(operationId)) {
            close();
            operationId = progress.operationId();
            bar = new ProgressBarBuilder()
                    .setTaskName("move " + ProgressDisplay.shortId(operationId))
                    .setInitialMax(Math.max(1, progress.unitsTotal()))
                    .setUnit(" units", 1)
                    .showSpeed()
                    .setStyle(ProgressBarStyle.COLORFUL_UNICODE_BLOCK)
                    .setUpdateIntervalMillis(250)
                    .setEtaFunction(state -> Optional.of(eta))
                    .setConsumer(new ConsoleProgressBarConsumer(System.err))
                    .build();
        }
        eta = progress.eta();
        bar.maxHint(Math.max(1, Math.max(progress.unitsTotal(), progress.unitsCopied())));
        bar.stepTo(progress.unitsCopied());
        bar.setExtraMessage(progress.rowsCopied() + " rows, batch " + (progress.batch() + 1) + "/"
                + Math.max(1, progress.batches()));
    }

    @Override
    public synchronized void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
