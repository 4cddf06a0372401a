package org.atomicshards.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.atomicshards.benchmarks.merge.MergeQuery;
import org.atomicshards.benchmarks.merge.MergeSide;
import org.atomicshards.benchmarks.move.MoveFigure;
import org.atomicshards.benchmarks.report.Comparison;
import org.atomicshards.benchmarks.scale.ScaleProbe;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Every row of the result table names figures the suite actually produces, so that no row can silently drop into
 * "not measured" because of a misspelt key; and every benchmark and probe feeds at least one row.
 */
class CatalogueTest {

    private static final Pattern JMH_KEY =
            Pattern.compile("(\\w+)\\.(\\w+)(?:\\[(\\w+)=(\\w+)])?(?:@threads=(\\d+))?(?::(alloc|allocPerRow))?");

    private final Set<BenchmarkListEntry> benchmarks = BenchmarkList.defaultList()
            .getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of());

    @Test
    void everyKeyNamesABenchmarkAndParameterValueOrAHeapProbe() {
        for (String key : keys()) {
            if (key.startsWith(MoveFigure.KEY_PREFIX)) {
                assertThat(Arrays.stream(MoveFigure.values()).map(MoveFigure::key)).as("move figure").contains(key);
                continue;
            }
            if (key.startsWith("RetainedHeap.") || key.startsWith("ScaleProbe.")) {
                assertThat(probeKeys()).as("probe key").contains(key);
                continue;
            }
            Matcher parts = JMH_KEY.matcher(key);
            assertThat(parts.matches()).as("key format of %s", key).isTrue();
            BenchmarkListEntry benchmark = benchmarks.stream()
                    .filter(entry -> entry.getUsername().endsWith("." + parts.group(1) + "." + parts.group(2)))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("No benchmark method for " + key));
            if (parts.group(3) != null) {
                Map<String, String[]> params = benchmark.getParams().orElse(Map.of());
                assertThat(params).as("parameters of %s", key).containsKey(parts.group(3));
                List<String> values = new ArrayList<>(Arrays.asList(params.get(parts.group(3))));
                SuiteGroup.all().stream()
                        .filter(group -> Pattern.compile(group.include()).matcher(benchmark.getUsername()).find())
                        .map(group -> group.params().get(parts.group(3)))
                        .filter(value -> value != null)
                        .forEach(values::add);
                assertThat(values).as("values of %s (defaults and those a suite group sets)", key)
                        .contains(parts.group(4));
            }
            if (parts.group(5) != null) {
                assertThat(SuiteGroup.all()).as("a suite group running %s", key).anyMatch(group ->
                        group.threads() == Integer.parseInt(parts.group(5))
                                && Pattern.compile(group.include()).matcher(benchmark.getUsername()).find());
            }
        }
    }

    @Test
    void everyBenchmarkAndProbeAppearsInTheTable() {
        Set<String> used = keys().stream().map(key -> key.replaceAll("\\[.*|:.*", "")).collect(Collectors.toSet());
        for (BenchmarkListEntry benchmark : benchmarks) {
            String[] name = benchmark.getUsername().split("\\.");
            assertThat(used).as("table rows").contains(name[name.length - 2] + "." + name[name.length - 1]);
        }
        assertThat(keys()).containsAll(probeKeys().stream().filter(key -> key.startsWith("RetainedHeap.")).toList());
        assertThat(keys()).containsAll(Arrays.stream(MoveFigure.values()).map(MoveFigure::key).toList());
    }

    @Test
    void theMoveRowsAreOnPostgresqlAndCompareTheApplicationDuringTheMoveWithBefore() {
        List<Comparison> moveRows = Catalogue.comparisons().stream()
                .filter(row -> row.subjectKey().startsWith(MoveFigure.KEY_PREFIX)).toList();
        assertThat(moveRows).isNotEmpty().allMatch(row -> Catalogue.groupOf(row.subjectKey()).equals(MoveProbes.GROUP))
                .allMatch(row -> row.label().contains(Catalogue.POSTGRES));
        assertThat(moveRows).anySatisfy(row -> {
            assertThat(row.subjectKey()).isEqualTo(MoveFigure.APPLICATION_DURING.key());
            assertThat(row.baselineKey()).isEqualTo(MoveFigure.APPLICATION_BEFORE.key());
        });
    }

    @Test
    void everyRowIsMeasuredByOneGroupOfTheSuiteItsBaselineToo() {
        for (Comparison row : Catalogue.comparisons()) {
            String group = Catalogue.groupOf(row.subjectKey());
            assertThat(Catalogue.groups()).as("group of %s", row.subjectKey()).contains(group);
            if (row.baselineKey() != null) {
                assertThat(Catalogue.groupOf(row.baselineKey())).as("group of the baseline of %s", row.label())
                        .isEqualTo(group);
            }
            assertThat(group.startsWith("pg-")).as("%s: on PostgreSQL iff in a pg- group", row.label())
                    .isEqualTo(row.label().contains(Catalogue.POSTGRES));
            assertThat(Catalogue.comparisonsOf(group)).contains(row);
        }
    }

    @Test
    void theGroupOfEveryBenchmarkKeyRunsThatBenchmarkWithItsThreadsAndBackend() {
        for (String key : keys()) {
            Matcher parts = JMH_KEY.matcher(key);
            if (key.startsWith(MoveFigure.KEY_PREFIX) || key.startsWith("RetainedHeap.")
                    || key.startsWith("ScaleProbe.") || !parts.matches()) {
                continue;
            }
            SuiteGroup group = SuiteGroup.all().stream()
                    .filter(candidate -> candidate.name().equals(Catalogue.groupOf(key))).findFirst().orElseThrow();
            assertThat(benchmarks).as("%s runs %s", group.name(), key).anyMatch(entry ->
                    entry.getUsername().endsWith("." + parts.group(1) + "." + parts.group(2))
                            && Pattern.compile(group.include()).matcher(entry.getUsername()).find());
            assertThat(group.threads()).as("threads of %s", key)
                    .isEqualTo(parts.group(5) == null ? 1 : Integer.parseInt(parts.group(5)));
            assertThat(group.params().get("backend")).as("backend of %s", key)
                    .isEqualTo(key.contains("backend=POSTGRESQL") ? "POSTGRESQL" : null);
        }
    }

    @Test
    void everySuiteGroupMatchesSomeBenchmark() {
        for (SuiteGroup group : SuiteGroup.all()) {
            Pattern include = Pattern.compile(group.include());
            assertThat(benchmarks).as("benchmarks of group %s", group.name())
                    .anyMatch(entry -> include.matcher(entry.getUsername()).find());
        }
    }

    private static List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (Comparison comparison : Catalogue.comparisons()) {
            keys.add(comparison.subjectKey());
            if (comparison.baselineKey() != null) {
                keys.add(comparison.baselineKey());
            }
        }
        return keys;
    }

    private static List<String> probeKeys() {
        List<String> keys = new ArrayList<>(Arrays.stream(MergeSide.values())
                .flatMap(side -> Arrays.stream(MergeQuery.values()).flatMap(query -> Stream.of(
                        Catalogue.retainedKey(side.cliName(), query, "20000"),
                        Catalogue.retainedKey(side.cliName(), query, "200000"))))
                .toList());
        for (int shards : ScaleProbes.SHARD_COUNTS) {
            for (String figure : ScaleProbe.FIGURES) {
                keys.add(Catalogue.scaleKey(figure, shards));
                if (shards != ScaleProbes.SHARD_COUNTS.get(0) && figure.startsWith("heap")) {
                    keys.add(Catalogue.heapPerShardKey(figure, shards));
                }
            }
        }
        return keys;
    }
}
