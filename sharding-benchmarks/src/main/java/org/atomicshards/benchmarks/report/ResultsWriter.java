package org.atomicshards.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a run's results into a documentation directory ({@code docs/benchmarks/} of the repository):
 * <ul>
 *   <li>{@value #RESULTS}: one {@link Section} per group, merged by group with the file as it was: the groups the
 *       run ran get new sections, every other group keeps its section (with its own run, commit and machine);</li>
 *   <li>{@value #ARCHIVE}: the sections the run replaced, put before the earlier ones (newest first);</li>
 *   <li>per group that ran, {@code <group>.ratios.png} (ratios against targets, {@link RatioChart}) and
 *       {@code <group>.figures.png} (figures without a baseline, {@link FigureChart}) where it has such rows; the
 *       group's earlier charts are deleted first, so none outlives its section.</li>
 * </ul>
 * A run of no group changes nothing. Not thread-safe; one writer per directory at a time.
 */
public final class ResultsWriter {

    public static final String RESULTS = "results.md";
    public static final String ARCHIVE = "archive.md";

    private final Path directory;
    private final List<String> groupOrder;

    /**
     * @param directory  where the files are written (created if missing)
     * @param groupOrder every group of the suite, in the order of the results file
     */
    public ResultsWriter(Path directory, List<String> groupOrder) {
        this.directory = directory;
        this.groupOrder = List.copyOf(groupOrder);
    }

    /**
     * Writes {@code results} of {@code run}.
     *
     * @return the new sections, in the order of {@code results}
     */
    public List<Section> write(RunInfo run, List<GroupResult> results, Measurements measurements) throws IOException {
        if (results.isEmpty()) {
            return List.of();
        }
        Files.createDirectories(directory);
        Path resultsFile = directory.resolve(RESULTS);
        Map<String, Section> sections = Files.exists(resultsFile)
                ? new LinkedHashMap<>(Section.parseAll(Files.readString(resultsFile, StandardCharsets.UTF_8)))
                : new LinkedHashMap<>();
        List<Section> written = new ArrayList<>();
        List<Section> replaced = new ArrayList<>();
        for (GroupResult group : results) {
            Section section = GroupSection.render(run, group, measurements, drawCharts(group, measurements));
            written.add(section);
            Section earlier = sections.put(group.group(), section);
            if (earlier != null) {
                replaced.add(earlier);
            }
        }
        Files.writeString(resultsFile, ResultsDocument.render(sections, groupOrder), StandardCharsets.UTF_8);
        Path archive = directory.resolve(ARCHIVE);
        if (!replaced.isEmpty()) {
            String existing = Files.exists(archive) ? Files.readString(archive, StandardCharsets.UTF_8) : null;
            Files.writeString(archive, ArchiveDocument.prepend(existing, replaced, run), StandardCharsets.UTF_8);
        } else if (!Files.exists(archive)) {
            Files.writeString(archive, ArchiveDocument.HEADER, StandardCharsets.UTF_8); // results.md links to it
        }
        return written;
    }

    private List<GroupSection.Chart> drawCharts(GroupResult group, Measurements measurements) throws IOException {
        try (DirectoryStream<Path> earlier = Files.newDirectoryStream(directory, group.group() + ".*.png")) {
            for (Path chart : earlier) {
                Files.delete(chart);
            }
        }
        List<GroupSection.Chart> charts = new ArrayList<>();
        String ratios = group.group() + ".ratios.png";
        if (RatioChart.write(group.group() + ": ratio to the baseline, and the target", group.comparisons(),
                measurements, directory.resolve(ratios))) {
            charts.add(new GroupSection.Chart(ratios, group.group() + ": each ratio with its interval, beside its "
                    + "target"));
        }
        String figures = group.group() + ".figures.png";
        if (FigureChart.write(group.group() + ": figures", group.comparisons(), measurements,
                directory.resolve(figures))) {
            charts.add(new GroupSection.Chart(figures, group.group() + ": each figure with its interval"));
        }
        return charts;
    }
}
