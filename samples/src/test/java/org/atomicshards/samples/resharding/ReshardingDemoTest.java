package org.atomicshards.samples.resharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The main job's resharding demo, smaller: it must end on four even shards with every check holding. */
class ReshardingDemoTest {

    @Test
    void startsOnOneShardSplitsToFourWhileWritingAndLosesNothing() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ReshardingDemo.Outcome outcome;
        try {
            outcome = ReshardingDemo.run(new ReshardingDemo.Settings(300, 16, 2, Duration.ofMillis(300), 4),
                    new PrintStream(printed, true, StandardCharsets.UTF_8));
        } catch (IllegalStateException e) {
            // the moves' progress lines place a failed check between two steps of the resharding
            throw new AssertionError(e.getMessage() + "\nThe demo printed:\n"
                    + printed.toString(StandardCharsets.UTF_8), e);
        }

        assertThat(outcome.problems()).isEmpty();
        assertThat(outcome.virtualShardsPerShard()).containsOnlyKeys("s0", "s1", "s2", "s3").containsValues(4);
        assertThat(outcome.unitsPerShard().values()).allSatisfy(units -> assertThat(units).isPositive());
        assertThat(outcome.unitsPerShard().values().stream().mapToInt(Integer::intValue).sum())
                .isEqualTo((int) outcome.acknowledgedUnits());
        assertThat(outcome.acknowledgedUnits()).isGreaterThanOrEqualTo(300);
        assertThat(outcome.writesDuringResharding()).as("units of work acknowledged while the shards split")
                .isPositive();
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("Before sales start:", "After the split:", "split s0 -> s1", "split s1 -> s3", "OK");
    }

    @Test
    void anyProblemFailsTheRunListingIt() {
        ReshardingDemo.requireNoProblems(List.of());

        assertThatThrownBy(() -> ReshardingDemo.requireNoProblems(List.of(
                "missing: user 7 was acknowledged and is on no shard (the map names s2)",
                "duplicated: user 9 is on [s0, s1] (the map names s1)")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("failed with 2 problem(s)")
                .hasMessageContaining("missing: user 7")
                .hasMessageContaining("duplicated: user 9");
    }

    @Test
    void settingsThatCannotSplitEvenlyAreRefused() {
        assertThatThrownBy(() -> new ReshardingDemo.Settings(100, 30, 2, Duration.ZERO, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("virtualShards is 30");
    }
}
