package org.atomicshards.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The repository's Markdown files, read the way GitHub renders them: headings, their anchors, links and code blocks. */
final class Markdown {

    /** The repository root: this module's parent directory. */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
    /** {@code [text](target)} and {@code ![alt](target)}, target without spaces, an optional title after it. */
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

    private Markdown() {
    }

    /** Every {@code .md} file of the repository, outside build output and hidden directories. */
    static List<Path> files() {
        try (Stream<Path> paths = Files.walk(ROOT)) {
            return paths.filter(path -> path.toString().endsWith(".md")).filter(Files::isRegularFile)
                    .filter(Markdown::isSource).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isSource(Path path) {
        for (Path part : ROOT.relativize(path)) {
            String name = part.toString();
            if (name.equals("target") || name.startsWith(".") || name.equals("node_modules")) {
                return false;
            }
        }
        return true;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines of {@code text} outside fenced code blocks; lines inside them are replaced by empty lines. */
    static List<String> proseLines(String text) {
        List<String> lines = new ArrayList<>();
        boolean inFence = false;
        for (String line : text.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                lines.add("");
            } else {
                lines.add(inFence ? "" : line);
            }
        }
        return lines;
    }

    /** The anchors GitHub gives the headings of {@code text} (and any {@code <a name/id>}), duplicates numbered. */
    static Set<String> anchors(String text) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : proseLines(text)) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(2));
                int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1));
            }
        }
        return anchors;
    }

    /**
     * GitHub's heading slug: the rendered text (links as their text, code without its backticks, no emphasis marks),
     * lower case, every character that is not a letter, mark, digit, connector punctuation, space or hyphen removed,
     * each space a hyphen.
     */
    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "")
                .replaceAll("(\\*\\*|__|\\*)", "");
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "").replace(' ', '-');
    }

    /** A link in a Markdown file: its target as written and the line it is on (1-based). */
    record Link(String target, int line) {
    }

    /** The links of {@code text} outside code blocks and inline code. */
    static List<Link> links(String text) {
        List<Link> links = new ArrayList<>();
        List<String> lines = proseLines(text);
        for (int i = 0; i < lines.size(); i++) {
            String prose = INLINE_CODE.matcher(lines.get(i)).replaceAll("``");
            Matcher link = LINK.matcher(prose);
            while (link.find()) {
                links.add(new Link(link.group(1), i + 1));
            }
        }
        return links;
    }
}
