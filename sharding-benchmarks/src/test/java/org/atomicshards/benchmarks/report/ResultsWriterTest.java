package org.atomicshards.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The results file, its archive and its charts, written from a fake run's measurements. */
class ResultsWriterTest {

    private static final List<String> GROUPS = List.of("unit-of-work", "routing", "pg-fan-out");

    private static final List<Comparison> UNIT_OF_WORK = List.of(
            Comparison.against("unit of work: Atomic Shards", "ours", "plain Hibernate", "plain",
                    Target.ratioAtLeast(0.95)),
            Comparison.context("unit of work: ShardingSphere", "peer", "plain Hibernate", "plain"),
            Comparison.against("unit of work: with metrics", "metered", "plain Hibernate", "plain",
                    Target.ratioAtLeast(0.95)));

    private static final List<Comparison> ROUTING = List.of(
            Comparison.standalone("routing throughput: HASH", "route[HASH]"),
            Comparison.standalone("routing throughput: RANGE", "route[RANGE]"));

    @TempDir
    Path docs;

    private static RunInfo run(String start, String commit, boolean dirty, String... groups) {
        return new RunInfo(Instant.parse(start), Duration.ofSeconds(754), commit, dirty, "Example CPU @ 2.0GHz", 2,
                "OpenJDK 64-Bit Server VM 17.0.13+11", "Linux 6.1.0", "0.52 0.40 0.31", "1.94 1.20 0.70",
                List.of(groups));
    }

    private static Measurements unitOfWork(double ours) {
        Measurements measurements = new Measurements();
        measurements.add(new Measurement("ours", ours, 300, Unit.OPS_PER_SECOND));
        measurements.add(new Measurement("plain", 10_000, 200, Unit.OPS_PER_SECOND));
        measurements.add(new Measurement("peer", 2_500, 100, Unit.OPS_PER_SECOND));
        return measurements;
    }

    private String results() throws IOException {
        return Files.readString(docs.resolve(ResultsWriter.RESULTS), StandardCharsets.UTF_8);
    }

    @Nested
    class OneRun {

        @Test
        void writesTheRunTheTableWithIntervalsAndRatiosAndWhatWasNotMeasured() throws IOException {
            new ResultsWriter(docs, GROUPS).write(run("2026-12-07T14:05:09Z", "0123456789abcdef0123", false,
                    "unit-of-work"), List.of(new GroupResult("unit-of-work", UNIT_OF_WORK, List.of())), unitOfWork(9_600));

            String results = results();
            assertThat(results).startsWith("# Benchmark results\n")
                    .contains("    " + ResultsDocument.COMMAND + "\n")
                    .contains("| [unit-of-work](#unit-of-work) | 2026-12-07 14:05:09 UTC | `0123456789ab` | 1 of 1 |")
                    .contains("| routing | not run yet | — | run it with `-Dbenchmarks.only=routing` |")
                    .contains("\n## unit-of-work\n")
                    .contains("- run: 2026-12-07 14:05 UTC, 12:34 min, groups unit-of-work\n")
                    .contains("- commit: `0123456789ab`\n")
                    .contains("- machine: 2 cores, Example CPU @ 2.0GHz; OpenJDK 64-Bit Server VM 17.0.13+11; "
                            + "Linux 6.1.0\n")
                    .contains("- load average (1, 5, 15 min): 0.52 0.40 0.31 at the start, 1.94 1.20 0.70 at the end")
                    .contains("![unit-of-work: each ratio with its interval, beside its target]"
                            + "(unit-of-work.ratios.png)")
                    .contains("[archive.md](archive.md)");
            assertThat(Files.readString(docs.resolve(ResultsWriter.ARCHIVE), StandardCharsets.UTF_8))
                    .as("the archive the results file links to, with no earlier run yet")
                    .isEqualTo(ArchiveDocument.HEADER);
            // 9,600 ± 300 against 10,000 ± 200: 0.96 × √(0.03125² + 0.02²) = 0.036
            assertThat(results.lines().filter(line -> line.startsWith("| unit of work: Atomic Shards")))
                    .singleElement().asString()
                    .contains("| 9,600 ± 300 ops/s", "| 10,000 ± 200 ops/s", "| 0.96x ± 0.04", "| ≥ 0.95x", "| yes");
            assertThat(results).contains("| unit of work: ShardingSphere", "| 0.25x ± 0.01", "| —")
                    .contains("Not in the table (not measured in this run):\n\n"
                            + "- unit of work: with metrics vs plain Hibernate (`metered` / `plain`)\n");
        }

        @Test
        void drawsTheRatiosAgainstTheirTargetsAndTheFiguresWithoutABaselineAsPngs() throws IOException {
            Measurements measurements = unitOfWork(9_600);
            measurements.add(new Measurement("route[HASH]", 4.1e7, 2e6, Unit.OPS_PER_SECOND));
            measurements.add(new Measurement("route[RANGE]", 3.2e7, 1e6, Unit.OPS_PER_SECOND));

            new ResultsWriter(docs, GROUPS).write(run("2026-12-07T14:05:09Z", "0123456789abcdef", false,
                    "unit-of-work", "routing"), List.of(new GroupResult("unit-of-work", UNIT_OF_WORK, List.of()),
                    new GroupResult("routing", ROUTING, List.of())), measurements);

            assertPng(docs.resolve("unit-of-work.ratios.png"));
            assertPng(docs.resolve("routing.figures.png"));
            assertThat(docs.resolve("unit-of-work.figures.png")).as("no figure without a baseline").doesNotExist();
            assertThat(docs.resolve("routing.ratios.png")).as("no ratio").doesNotExist();
            assertThat(results()).contains("](routing.figures.png)");
        }

        @Test
        void saysWhyAGroupHasNoFigures() throws IOException {
            new ResultsWriter(docs, GROUPS).write(run("2026-12-07T14:05:09Z", null, false, "routing"),
                    List.of(new GroupResult("routing", ROUTING, List.of("routing: no benchmark in this build matches "
                            + "^\\Qorg.atomicshards.benchmarks.routing\\E"))), new Measurements());

            assertThat(results()).contains("| [routing](#routing) | 2026-12-07 14:05:09 UTC | `unknown` | no targets |")
                    .contains("- commit: `unknown (not run in a git work tree)`")
                    .contains("- routing throughput: HASH (`route[HASH]`)\n")
                    .contains("- routing: no benchmark in this build matches")
                    .doesNotContain("| benchmark |");
            assertThat(docs.resolve("routing.figures.png")).doesNotExist();
        }

        @Test
        void marksAWorkTreeWithUncommittedChanges() throws IOException {
            new ResultsWriter(docs, GROUPS).write(run("2026-12-07T14:05:09Z", "0123456789abcdef", true,
                    "unit-of-work"), List.of(new GroupResult("unit-of-work", UNIT_OF_WORK, List.of())), unitOfWork(9_000));

            assertThat(results()).contains("| `0123456789ab+dirty` | 0 of 1 |")
                    .contains("- commit: `0123456789ab + uncommitted changes`");
        }
    }

    @Nested
    class PartialRun {

        @Test
        void replacesTheSectionsOfTheGroupsItRanKeepsTheOthersAndArchivesWhatItReplaced() throws IOException {
            Measurements first = unitOfWork(9_600);
            first.add(new Measurement("route[HASH]", 4.1e7, 2e6, Unit.OPS_PER_SECOND));
            first.add(new Measurement("route[RANGE]", 3.2e7, 1e6, Unit.OPS_PER_SECOND));
            ResultsWriter writer = new ResultsWriter(docs, GROUPS);
            writer.write(run("2026-12-07T14:05:09Z", "1111111111111111", false, "unit-of-work", "routing"),
                    List.of(new GroupResult("unit-of-work", UNIT_OF_WORK, List.of()),
                            new GroupResult("routing", ROUTING, List.of())), first);
            Map<String, Section> before = Section.parseAll(results());
            byte[] routingChart = Files.readAllBytes(docs.resolve("routing.figures.png"));

            writer.write(run("2026-12-08T09:30:00Z", "2222222222222222", false, "unit-of-work"),
                    List.of(new GroupResult("unit-of-work", UNIT_OF_WORK, List.of())), unitOfWork(8_000));

            Map<String, Section> after = Section.parseAll(results());
            assertThat(after).containsOnlyKeys("unit-of-work", "routing");
            assertThat(after.get("routing")).as("kept as it was, with its own run and commit")
                    .isEqualTo(before.get("routing"));
            assertThat(after.get("routing").body()).contains("- run: 2026-12-07 14:05 UTC").contains("`111111111111`");
            assertThat(after.get("unit-of-work").body()).contains("- run: 2026-12-08 09:30 UTC")
                    .contains("`222222222222`").contains("| 0.80x ± 0.03", "| **no**");
            assertThat(results()).contains("| [unit-of-work](#unit-of-work) | 2026-12-08 09:30:00 UTC | "
                    + "`222222222222` | 0 of 1 |", "| [routing](#routing) | 2026-12-07 14:05:09 UTC | `111111111111` |");
            assertThat(Files.readAllBytes(docs.resolve("routing.figures.png"))).as("the kept group's chart")
                    .isEqualTo(routingChart);

            String archive = Files.readString(docs.resolve(ResultsWriter.ARCHIVE), StandardCharsets.UTF_8);
            assertThat(archive).startsWith(ArchiveDocument.HEADER)
                    .contains("\n## unit-of-work, run 2026-12-07 14:05:09 UTC (replaced 2026-12-08 09:30 UTC)\n\n"
                            + "- run: 2026-12-07 14:05 UTC")
                    .contains("| 0.96x ± 0.04")
                    .doesNotContain("![").doesNotContain("<!--").doesNotContain("## routing");
        }

        @Test
        void archivesTheNewestFirst() throws IOException {
            ResultsWriter writer = new ResultsWriter(docs, GROUPS);
            for (String start : List.of("2026-12-07T10:00:00Z", "2026-12-08T10:00:00Z", "2026-12-09T10:00:00Z")) {
                writer.write(run(start, "3333333333333333", false, "unit-of-work"),
                        List.of(new GroupResult("unit-of-work", UNIT_OF_WORK, List.of())), unitOfWork(9_600));
            }

            String archive = Files.readString(docs.resolve(ResultsWriter.ARCHIVE), StandardCharsets.UTF_8);
            assertThat(archive.lines().filter(line -> line.startsWith("## "))).containsExactly(
                    "## unit-of-work, run 2026-12-08 10:00:00 UTC (replaced 2026-12-09 10:00 UTC)",
                    "## unit-of-work, run 2026-12-07 10:00:00 UTC (replaced 2026-12-08 10:00 UTC)");
            assertThat(Section.parseAll(results()).get("unit-of-work").run()).isEqualTo("2026-12-09T10:00:00Z");
        }

        @Test
        void aRunOfNoGroupChangesNothing() throws IOException {
            assertThat(new ResultsWriter(docs, GROUPS).write(run("2026-12-07T10:00:00Z", null, false), List.of(),
                    new Measurements())).isEmpty();

            assertThat(docs.resolve(ResultsWriter.RESULTS)).doesNotExist();
        }
    }

    private static void assertPng(Path file) throws IOException {
        assertThat(file).exists();
        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image).as("a PNG image in %s", file).isNotNull();
        assertThat(image.getWidth()).isGreaterThan(500);
        assertThat(image.getHeight()).isGreaterThan(300);
    }
}
