package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code remove-ring-member} and {@code add-ring-member} on the samples' model with User on a consistent-hash ring of
 * four in-memory H2 shards, through {@code CommandLine.execute}: the keys move, {@code verify} finds every unit where
 * routing says, and bad input is a usage error.
 */
class RingCommandsTest {

    private static final String USER = "org.atomicshards.samples.model.User";

    @TempDir
    Path directory;

    SampleShards sample;

    @BeforeEach
    void writeSample() throws Exception {
        sample = SampleShards.createOnRing(directory, 80);
    }

    private CliRun run(String command, String... more) {
        return sample.run(command, more);
    }

    /** Users per shard, as {@code status --json} reports them. */
    private Map<String, Long> users() {
        CliRun status = run("status", "--json");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        Map<String, Long> users = new LinkedHashMap<>();
        for (JsonNode shard : status.json().get("shards")) {
            users.put(shard.get("id").asText(), shard.get("rows").get(USER).asLong());
        }
        return users;
    }

    private void assertConsistent() {
        CliRun verify = run("verify");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).startsWith("checked 80 units").contains("all consistent");
    }

    @Test
    void aShardLeavesTheRingWithItsKeysAndJoinsItAgain() {
        Map<String, Long> before = users();
        assertThat(before.get("s3")).isPositive();

        CliRun remove = run("remove-ring-member", "--unit", "User", "--shard", "s3", "--json");

        assertThat(remove.exitCode()).as(remove.toString()).isZero();
        assertThat(remove.json().get("units").asLong()).isEqualTo(before.get("s3"));
        assertThat(remove.json().get("writePausesMillis")).as("one batch per remaining member").hasSize(3);
        Map<String, Long> without = users();
        assertThat(without.get("s3")).isZero();
        assertThat(without.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(80);
        assertConsistent();

        CliRun add = run("add-ring-member", "--unit", USER, "--shard", "s3");

        assertThat(add.exitCode()).as(add.toString()).isZero();
        assertThat(add.out()).contains(before.get("s3") + " units");
        assertThat(users()).isEqualTo(before); // the ring of four again: every key back where it was
        assertConsistent();
        assertThat(run("operations").out()).doesNotContain("RING");
    }

    @Test
    void anUnknownUnitOrShardIsAUsageErrorAndNothingMoves() {
        Map<String, Long> before = users();

        CliRun unknownUnit = run("remove-ring-member", "--unit", "Nope", "--shard", "s3");
        CliRun unknownShard = run("add-ring-member", "--unit", "User", "--shard", "s9");
        CliRun missing = run("add-ring-member", "--unit", "User");

        assertThat(unknownUnit.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknownUnit.err()).contains("No atomic unit has the root 'Nope'").contains(USER);
        assertThat(unknownShard.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknownShard.err()).contains("s9");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("--shard");
        assertThat(users()).isEqualTo(before);
    }
}
