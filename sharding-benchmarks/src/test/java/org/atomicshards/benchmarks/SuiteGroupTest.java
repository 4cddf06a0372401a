package org.atomicshards.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.Options;

/** Which groups a run selects: the PostgreSQL groups only when named, everything else under the default. */
class SuiteGroupTest {

    private static List<String> selected(String only) {
        Pattern pattern = Pattern.compile(only);
        return SuiteGroup.all().stream().filter(group -> group.selectedBy(pattern)).map(SuiteGroup::name).toList();
    }

    @Test
    void theDefaultRunLeavesOutTheGroupsThatNeedPostgresql() {
        assertThat(selected(SuiteGroup.ALL))
                .contains("unit-of-work", "unit-of-work-8-threads", "fan-out", "scale")
                .noneMatch(name -> name.startsWith("pg-"));
    }

    @Test
    void thePostgresqlGroupsRunWhenNamed() {
        assertThat(selected("pg-.*")).containsExactly("pg-unit-of-work", "pg-unit-of-work-8-threads", "pg-fan-out",
                "pg-replica", "pg-replica-8-threads");
        assertThat(selected("pg-fan-out|scale")).containsExactly("scale", "pg-fan-out");
    }

    @Test
    void thePostgresqlUnitOfWorkGroupsPutTheSidesOnPostgresqlWithTheirThreadCount() {
        SuiteGroup group = SuiteGroup.all().stream().filter(g -> g.name().equals("pg-unit-of-work-8-threads"))
                .findFirst().orElseThrow();
        Options options = group.options(Path.of("target", "suite-group-test"));
        assertThat(options.getParameter("backend").get()).containsExactly("POSTGRESQL");
        assertThat(options.getThreads().get()).isEqualTo(8);
        assertThat(group.needsPostgres()).isTrue();
    }

    @Test
    void theOneThreadUnitOfWorkOnH2RunsEachSideInThreeJvmsAndTheOtherGroupsInOne() {
        for (SuiteGroup group : SuiteGroup.all()) {
            Options options = group.options(Path.of("target", "suite-group-test"));
            assertThat(options.getForkCount().get()).as(group.name())
                    .isEqualTo(group.name().equals("unit-of-work") ? 3 : 1);
        }
    }

    @Test
    void onlyTheGroupWithSeveralJvmsASideRunsThemInRounds() {
        assertThat(SuiteGroup.all().stream().filter(SuiteGroup::interleavesForks).map(SuiteGroup::name))
                .containsExactly("unit-of-work");
    }

    @Test
    void aRoundRunsOneBenchmarkAloneInOneJvmWithFilesOfItsOwn() {
        SuiteGroup group = SuiteGroup.all().stream().filter(g -> g.name().equals("unit-of-work"))
                .findFirst().orElseThrow();
        String benchmark = "org.atomicshards.benchmarks.unitofwork.UnitOfWorkBenchmark.atomicShards";
        Options options = group.roundOptions(Path.of("target", "suite-group-test"), benchmark, 2);
        assertThat(options.getForkCount().get()).isEqualTo(1);
        assertThat(options.getIncludes()).hasSize(1);
        Pattern include = Pattern.compile(options.getIncludes().get(0));
        assertThat(include.matcher(benchmark).find()).isTrue();
        assertThat(include.matcher(benchmark + "WithMetrics").find()).isFalse();
        assertThat(options.getOutput().get()).endsWith("jmh-unit-of-work-2-atomicShards.log");
        assertThat(options.getResult().get()).endsWith("jmh-unit-of-work-2-atomicShards.json");
    }

    @Test
    void eachRoundRunsTheBenchmarksInTheOppositeOrderOfTheRoundBefore() {
        List<String> sides = List.of("a", "b", "c");
        assertThat(InterleavedForks.inRoundOrder(sides, 1)).containsExactly("a", "b", "c");
        assertThat(InterleavedForks.inRoundOrder(sides, 2)).containsExactly("c", "b", "a");
        assertThat(InterleavedForks.inRoundOrder(sides, 3)).containsExactly("a", "b", "c");
    }

    @Test
    void theUnitOfWorkOnH2CanGetMoreJvmsASide() {
        SuiteGroup group = SuiteGroup.all(12).stream().filter(g -> g.name().equals("unit-of-work"))
                .findFirst().orElseThrow();
        assertThat(group.forks()).isEqualTo(12);
        assertThat(group.interleavesForks()).isTrue();
        assertThat(SuiteGroup.all(1).stream().noneMatch(SuiteGroup::interleavesForks)).isTrue();
    }

    @Test
    void theJvmCountSettingIsAWholeNumberOfAtLeastOne() {
        assertThat(SuiteGroup.unitOfWorkJvms(" 9 ")).isEqualTo(9);
        for (String bad : List.of("0", "-2", "", "three", "2.5")) {
            assertThatThrownBy(() -> SuiteGroup.unitOfWorkJvms(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("benchmarks.unitOfWorkJvms must be a whole number of JVMs, at least 1, was '" + bad
                            + "'");
        }
    }

    @Test
    void aGroupRunInRoundsNamesThePatternOfItsRoundsLogs() {
        assertThat(SuiteGroup.all(3).stream().map(SuiteGroup::logName))
                .contains("jmh-unit-of-work-<round>-<method>.log", "jmh-fan-out.log");
    }
}
