package org.atomicshards.benchmarks.report;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One group's section of the results file, between two HTML comments that a later write finds it by:
 * {@code <!-- section <group> run=<ISO instant> commit=<hash[+dirty]|unknown> targets=<met>/<judged> -->} and
 * {@code <!-- end section <group> -->}. The body starts with the heading {@code ## <group>}.
 *
 * @param group   the suite group
 * @param run     the run's {@link RunInfo#id() id}
 * @param commit  the commit's short hash, {@code +dirty} appended when the tree had changes; {@code unknown} if none
 * @param met     the targets met
 * @param judged  the targets judged (shown, with a target, warm)
 * @param body    the Markdown between the markers, heading first, ending with a line break
 */
public record Section(String group, String run, String commit, int met, int judged, String body) {

    private static final Pattern MARKED = Pattern.compile("<!-- section (\\S+) run=(\\S+) commit=(\\S+) targets=(\\d+)/"
            + "(\\d+) -->\\n(.*?)<!-- end section \\1 -->\\n?", Pattern.DOTALL);

    public Section {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(body, "body");
    }

    /** The sections of a results file's text, by group, in the order they appear. */
    public static Map<String, Section> parseAll(String document) {
        Map<String, Section> sections = new LinkedHashMap<>();
        Matcher section = MARKED.matcher(document);
        while (section.find()) {
            sections.put(section.group(1), new Section(section.group(1), section.group(2), section.group(3),
                    Integer.parseInt(section.group(4)), Integer.parseInt(section.group(5)), section.group(6)));
        }
        return sections;
    }

    /** The section with its markers, as the results file holds it. */
    public String marked() {
        return "<!-- section " + group + " run=" + run + " commit=" + commit + " targets=" + met + "/" + judged
                + " -->\n" + body + "<!-- end section " + group + " -->\n";
    }

    /** The body without its heading and without its chart images (the archive keeps no charts). */
    public String bodyWithoutHeadingAndCharts() {
        return body.lines()
                .dropWhile(line -> line.startsWith("## ") || line.isBlank())
                .filter(line -> !line.startsWith("!["))
                .reduce(new StringBuilder(), (out, line) -> out.append(line).append('\n'), StringBuilder::append)
                .toString().replaceAll("\\n{3,}", "\n\n");
    }
}
