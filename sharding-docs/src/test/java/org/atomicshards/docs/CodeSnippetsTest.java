package org.atomicshards.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Code in the documentation that is marked {@code <!-- snippet: <file>#<tag> -->} is the region between
 * {@code // tag::<tag>[]} and {@code // end::<tag>[]} of a Java source the build compiles (indentation aside), so it
 * compiles, and the tests beside it run it. Every Java block of the README is such a snippet.
 */
class CodeSnippetsTest {

    private static final Pattern SNIPPET = Pattern.compile(
            "<!-- snippet: (\\S+)#(\\S+) -->\\n```(\\w*)\\n(.*?)\\n```", Pattern.DOTALL);
    private static final Pattern JAVA_BLOCK = Pattern.compile("(?m)^```java$");
    private static final Pattern COMPILED_SOURCE = Pattern.compile("([\\w-]+)/src/(main|test)/java/.+\\.java");

    @Test
    void everyMarkedSnippetIsItsCompiledSourceRegion() {
        List<String> problems = new ArrayList<>();
        int snippets = 0;
        for (Path file : Markdown.files()) {
            Matcher snippet = SNIPPET.matcher(Markdown.read(file));
            while (snippet.find()) {
                snippets++;
                String where = Markdown.ROOT.relativize(file) + " (" + snippet.group(1) + "#" + snippet.group(2) + ")";
                String problem = problem(snippet.group(1), snippet.group(2), snippet.group(4));
                if (problem != null) {
                    problems.add(where + ": " + problem);
                }
            }
        }

        assertThat(snippets).as("marked snippets in the documentation").isGreaterThanOrEqualTo(4);
        assertThat(problems).isEmpty();
    }

    @Test
    void everyJavaBlockOfTheReadmeIsACompiledSnippet() {
        String readme = Markdown.read(Markdown.ROOT.resolve("README.md"));
        long javaBlocks = JAVA_BLOCK.matcher(readme).results().count();
        long marked = SNIPPET.matcher(readme).results().filter(snippet -> snippet.group(3).equals("java")).count();

        assertThat(marked).as("Java blocks of README.md marked <!-- snippet: ... -->").isEqualTo(javaBlocks);
    }

    /** Why the block does not show the region; null when it does. */
    static String problem(String source, String tag, String block) {
        Matcher compiled = COMPILED_SOURCE.matcher(source);
        if (!compiled.matches()) {
            return "the snippet's file is not a Java source of a module (<module>/src/main|test/java/...)";
        }
        if (!Markdown.read(Markdown.ROOT.resolve("pom.xml")).contains("<module>" + compiled.group(1) + "</module>")) {
            return "module " + compiled.group(1) + " is not built by the root pom";
        }
        Path file = Markdown.ROOT.resolve(source);
        if (!Files.isRegularFile(file)) {
            return "no such file";
        }
        List<String> lines = Markdown.read(file).lines().toList();
        int start = indexOf(lines, "// tag::" + tag + "[]", 0);
        int end = indexOf(lines, "// end::" + tag + "[]", start + 1);
        if (start < 0 || end < 0) {
            return "no region // tag::" + tag + "[] ... // end::" + tag + "[] in the file";
        }
        String region = dedent(lines.subList(start + 1, end));
        String shown = dedent(block.lines().toList());
        return region.equals(shown) ? null : "differs from the source; the source's region is:\n" + region;
    }

    private static int indexOf(List<String> lines, String marker, int from) {
        for (int i = Math.max(0, from); i < lines.size(); i++) {
            if (lines.get(i).strip().equals(marker)) {
                return i;
            }
        }
        return -1;
    }

    /** The lines without their common indentation and trailing spaces, joined by newlines, outer blank lines dropped. */
    static String dedent(List<String> lines) {
        int indent = lines.stream().filter(line -> !line.isBlank())
                .mapToInt(line -> line.length() - line.stripLeading().length()).min().orElse(0);
        List<String> result = new ArrayList<>();
        for (String line : lines) {
            result.add(line.isBlank() ? "" : line.substring(indent).stripTrailing());
        }
        return String.join("\n", result).replaceAll("^\\n+|\\n+$", "");
    }
}
