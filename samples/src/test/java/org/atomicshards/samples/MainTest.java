package org.atomicshards.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.atomicshards.model.RoutingMetadata;
import org.atomicshards.samples.model.User;
import org.junit.jupiter.api.Test;

/** The main job, smaller: every check inside it throws on a mismatch; here it must complete with a sane skew. */
class MainTest {

    @Test
    void theJobWritesReadsBackGuardsAndReportsTheDistribution() {
        double skew = Main.run(400);
        assertThat(skew).isBetween(1.0, 1.5);
    }

    /**
     * Built with the annotation processor (as the documentation wires it), the model boots without a word from Atomic Shards:
     * the processor's routing metadata is on the class path and agrees with the mapped entities.
     */
    @Test
    void aModelBuiltWithTheProcessorBootsWithoutAWarning() {
        assertThat(RoutingMetadata.readAll(getClass().getClassLoader()).unit(User.class.getName()))
                .as("the processor's metadata of the samples").isPresent();
        Logger library = Logger.getLogger("org.atomicshards");
        List<LogRecord> warnings = Collections.synchronizedList(new ArrayList<>());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        library.addHandler(capture);
        try {
            Main.boot().close();
        } finally {
            library.removeHandler(capture);
        }

        assertThat(warnings).extracting(LogRecord::getMessage).isEmpty();
    }
}
