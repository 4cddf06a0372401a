package org.atomicshards.benchmarks.report;

import java.util.List;

/**
 * The text of {@code archive.md}: the sections of the results file that later runs of their groups replaced, newest
 * first, each under the heading {@code ## <group>, run <date> (replaced <date>)}. Their charts are not kept (the
 * PNG files are overwritten by each run); their tables are.
 */
final class ArchiveDocument {

    static final String HEADER = """
            # Benchmark results: earlier runs

            Sections of [results.md](results.md) that a later run of their group replaced, newest first. Their charts
            are not kept.
            """;

    private ArchiveDocument() {
    }

    /**
     * @param existing the archive's text so far; null or empty for none
     * @param replaced the sections {@code run} replaced
     */
    static String prepend(String existing, List<Section> replaced, RunInfo run) {
        StringBuilder out = new StringBuilder(HEADER);
        for (Section section : replaced) {
            out.append("\n## ").append(section.group()).append(", run ")
                    .append(section.run().replace('T', ' ').replace("Z", " UTC")).append(" (replaced ")
                    .append(run.date()).append(")\n\n").append(section.bodyWithoutHeadingAndCharts());
        }
        if (existing != null) {
            int firstEntry = existing.indexOf("\n## ");
            if (firstEntry >= 0) {
                out.append(existing.substring(firstEntry));
            }
        }
        return out.toString();
    }
}
