package org.atomicshards.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The README's table of message codes and the catalogue list the same codes: no rule only in one of them. */
class MessageDocumentationTest {

    @Test
    void theReadmeDocumentsExactlyTheCataloguesCodes() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        Set<String> documented = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| (SHARD-\\d{3}) \\|").matcher(readme);
        while (row.find()) {
            documented.add(row.group(1));
        }

        Set<String> catalogued = new TreeSet<>(Arrays.stream(Message.values()).map(Message::code).toList());
        assertThat(documented).isEqualTo(catalogued);
    }
}
