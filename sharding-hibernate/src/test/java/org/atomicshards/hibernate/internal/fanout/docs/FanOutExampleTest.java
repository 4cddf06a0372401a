package org.atomicshards.hibernate.internal.fanout.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** The user guide's fan-out example runs and prints exactly the output the guide shows. */
class FanOutExampleTest {

    private static final String OUTPUT_START = "<!-- fan-out example output -->";

    @Test
    void theUserGuideShowsTheRealOutputOfItsExample() throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            FanOutExample.run(out);
        }
        String output = printed.toString(StandardCharsets.UTF_8).strip();

        String guide = Files.readString(Path.of("..", "docs", "user-guide.md"));
        int start = guide.indexOf(OUTPUT_START);
        assertThat(start).as("docs/user-guide.md has the marker " + OUTPUT_START).isNotNegative();
        int blockStart = guide.indexOf("```\n", start) + 4;
        int blockEnd = guide.indexOf("```", blockStart);
        assertThat(guide.substring(blockStart, blockEnd).strip()).isEqualTo(output);
    }
}
