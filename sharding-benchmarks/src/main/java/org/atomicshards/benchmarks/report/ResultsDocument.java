package org.atomicshards.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The text of {@code results.md}: what the file is and how it is made, an index of the suite's groups (the run and
 * commit of each one's section, its targets met, or how to run it if it never ran), then the sections in the suite's
 * order; sections of groups the suite no longer has come last, so nothing measured is silently dropped.
 */
final class ResultsDocument {

    /** The benchmark command, as the file names it. */
    static final String COMMAND = "mvn -B -ntp -DskipTests -Pbenchmarks -pl sharding-benchmarks -am verify";

    private ResultsDocument() {
    }

    static String render(Map<String, Section> sections, List<String> groupOrder) {
        StringBuilder out = new StringBuilder("""
                # Benchmark results

                Written by the benchmark command, not by hand (from the repository's root):

                    %s

                Each group of benchmarks has its own section, from the last run that ran the group: a run of some groups
                (`-Dbenchmarks.only='<regex over group names>'`) replaces their sections and keeps the others, each with
                its own date, commit and machine. A replaced section moves to [archive.md](archive.md). A figure is the
                mean with the half-width of its 99.9%% confidence interval (JMH's; a probe measured once has none); a
                ratio compares two figures of the same run, its interval propagated from theirs.

                | group | run | commit | targets met |
                |---|---|---|---|
                """.formatted(COMMAND));
        List<String> order = new ArrayList<>(groupOrder);
        sections.keySet().stream().filter(group -> !order.contains(group)).forEach(order::add);
        for (String group : order) {
            Section section = sections.get(group);
            if (section == null) {
                out.append("| ").append(group).append(" | not run yet | — | run it with `-Dbenchmarks.only=")
                        .append(group).append("` |\n");
            } else {
                out.append("| [").append(group).append("](#").append(group).append(") | ")
                        .append(section.run().replace('T', ' ').replace("Z", " UTC")).append(" | `")
                        .append(section.commit()).append("` | ")
                        .append(section.judged() == 0 ? "no targets" : section.met() + " of " + section.judged())
                        .append(" |\n");
            }
        }
        for (String group : order) {
            Section section = sections.get(group);
            if (section != null) {
                out.append('\n').append(section.marked());
            }
        }
        return out.toString();
    }
}
