package org.atomicshards.samples.hello;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * The README's hello world (its three classes are this package's, checked by the annotation processor in this build)
 * runs and prints exactly the output the README shows under its marker.
 */
class HelloShardsTest {

    private static final String OUTPUT_MARKER = "<!-- hello world output -->";

    @Test
    void theReadmeShowsTheRealOutputOfItsHelloWorld() throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream original = System.out;
        try (PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            System.setOut(out);
            HelloShards.main(new String[0]);
        } finally {
            System.setOut(original);
        }
        String output = printed.toString(StandardCharsets.UTF_8).strip();

        assertThat(output).contains("customer 7 lives on s").endsWith("10 orders on 2 shards");
        assertThat(codeBlockAfter(Files.readString(Path.of("..", "README.md")), OUTPUT_MARKER)).isEqualTo(output);
    }

    /** The first fenced block after {@code marker}, without its fences. */
    static String codeBlockAfter(String markdown, String marker) {
        int at = markdown.indexOf(marker);
        assertThat(at).as("README.md has the marker %s", marker).isNotNegative();
        int start = markdown.indexOf('\n', markdown.indexOf("```", at)) + 1;
        return markdown.substring(start, markdown.indexOf("```", start)).strip();
    }
}
