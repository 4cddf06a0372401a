package org.atomicshards.hibernate.internal.fanout.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** The README's fan-out example runs and prints exactly the output the README shows. */
class ReadmeFanOutExampleTest {

    private static final String OUTPUT_START = "<!-- fan-out example output -->";

    @Test
    void theReadmeShowsTheRealOutputOfItsExample() throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            ReadmeFanOutExample.run(out);
        }
        String output = printed.toString(StandardCharsets.UTF_8).strip();

        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf(OUTPUT_START);
        assertThat(start).as("the README has the marker " + OUTPUT_START).isNotNegative();
        int blockStart = readme.indexOf("```\n", start) + 4;
        int blockEnd = readme.indexOf("```", blockStart);
        assertThat(readme.substring(blockStart, blockEnd).strip()).isEqualTo(output);
    }
}
