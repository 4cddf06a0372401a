package org.atomicshards.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;

import org.atomicshards.hibernate.admin.MoveProgress;
import org.junit.jupiter.api.Test;

/** Progress as lines: throttled, a line per batch, the estimate from the batches finished, the last one on close. */
class ProgressLinesTest {

    private static MoveProgress at(String id, int batch, long units, long seconds) {
        return new MoveProgress(id, batch, 4, units, units, units * 3, Duration.ofSeconds(seconds),
                units / (double) Math.max(1, seconds), Duration.ZERO);
    }

    @Test
    void aLinePerBatchWithTheTimeLeftFromTheBatchesFinished() {
        StringWriter text = new StringWriter();
        ProgressLines lines = new ProgressLines(new PrintWriter(text), Duration.ofHours(1));

        lines.onProgress(at("0123456789abcdef", 0, 10, 1));
        lines.onProgress(at("0123456789abcdef", 0, 20, 2)); // same batch, within the interval: not shown
        lines.onProgress(at("0123456789abcdef", 1, 30, 4)); // one of four batches took 4 s: three left, 12 s
        lines.onProgress(at("0123456789abcdef", 1, 40, 5));
        lines.close();

        assertThat(text.toString().lines()).containsExactly(
                "move 01234567: batch 1/4, 10 units, 30 rows copied, 10.0 units/s, 0:00:01 elapsed, ETA ?",
                "move 01234567: batch 2/4, 30 units, 90 rows copied, 7.5 units/s, 0:00:04 elapsed, ETA 0:00:12",
                "move 01234567: batch 2/4, 40 units, 120 rows copied, 8.0 units/s, 0:00:05 elapsed, ETA 0:00:15");
    }

    @Test
    void aResumedMoveEstimatesFromTheBatchItResumedAt() {
        StringWriter text = new StringWriter();
        ProgressLines lines = new ProgressLines(new PrintWriter(text), Duration.ZERO);

        lines.onProgress(at("resumed-move", 2, 5, 1));
        lines.onProgress(at("resumed-move", 3, 9, 6));

        assertThat(text.toString().lines()).last().asString().endsWith("0:00:06 elapsed, ETA 0:00:06");
    }
}
