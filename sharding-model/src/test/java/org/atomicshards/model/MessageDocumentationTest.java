package org.atomicshards.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The table of message codes in docs/build-time-checks.md and the catalogue list the same codes, and the table marks
 * exactly the warnings as warnings: no rule only in one of them.
 */
class MessageDocumentationTest {

    private static final Pattern ROW = Pattern.compile("(?m)^\\| (SHARD-\\d{3}) \\| ([^|]*)\\|");

    @Test
    void theBuildTimeChecksPageDocumentsExactlyTheCataloguesCodes() throws IOException {
        Set<String> documented = new TreeSet<>(rules().keySet());

        Set<String> catalogued = new TreeSet<>(Arrays.stream(Message.values()).map(Message::code).toList());
        assertThat(documented).isEqualTo(catalogued);
    }

    @Test
    void theWarningsAreDocumentedAsWarnings() throws IOException {
        Set<String> documentedWarnings = new TreeSet<>();
        rules().forEach((code, rule) -> {
            if (rule.toLowerCase(Locale.ROOT).startsWith("warning")) {
                documentedWarnings.add(code);
            }
        });

        assertThat(documentedWarnings).isEqualTo(new TreeSet<>(Arrays.stream(Message.values())
                .filter(message -> message.severity() == Severity.WARNING).map(Message::code).toList()));
    }

    /** The rule column of every row of the table, by code. */
    private static Map<String, String> rules() throws IOException {
        String page = Files.readString(Path.of("..", "docs", "build-time-checks.md"));
        Map<String, String> rules = new TreeMap<>();
        Matcher row = ROW.matcher(page);
        while (row.find()) {
            rules.put(row.group(1), row.group(2).strip());
        }
        return rules;
    }
}
