package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.atomicshards.cli.internal.Skew;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatusCommandTest {

    private static final String USER = "org.atomicshards.samples.model.User";
    private static final String STATUS = "org.atomicshards.samples.model.Status";
    private static final String PHOTO = "org.atomicshards.samples.model.Photo";
    private static final String COUNTRY = "org.atomicshards.samples.model.Country";

    @TempDir
    static Path directory;

    static SampleShards sample;

    @BeforeAll
    static void writeSample() throws Exception {
        sample = SampleShards.create(directory, false, 200);
    }

    private static CliRun status(String... more) {
        String[] args = new String[more.length + 3];
        args[0] = "status";
        args[1] = "--config";
        args[2] = sample.settingsFile.toString();
        System.arraycopy(more, 0, args, 3, more.length);
        return CliRun.of(sample.environment(), args);
    }

    @Test
    void jsonCountsEveryEntityOnEveryShardAsWritten() {
        CliRun run = status("--json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode json = run.json();
        assertThat(json.get("mapVersion").asInt()).isEqualTo(1);
        assertThat(json.get("virtualShards").asInt()).isEqualTo(64);
        assertThat(json.get("shards")).hasSize(4);
        for (JsonNode shard : json.get("shards")) {
            long[] written = sample.written.get(shard.get("id").asText());
            assertThat(shard.get("status").asText()).isEqualTo("ONLINE");
            assertThat(shard.get("reachable").asBoolean()).isTrue();
            assertThat(shard.get("virtualShards").asInt()).isEqualTo(16);
            JsonNode rows = shard.get("rows");
            assertThat(new long[] {rows.get(USER).asLong(), rows.get(STATUS).asLong(), rows.get(PHOTO).asLong()})
                    .containsExactly(written);
            assertThat(rows.get(COUNTRY).asLong()).isEqualTo(3);
        }
        assertThat(json.get("operationsInProgress").isArray()).isTrue();
        assertThat(json.get("operationsInProgress")).as("no move is running").isEmpty();
    }

    @Test
    void skewIsComputedFromTheUnitsPerShard() {
        JsonNode unit = status("--json").json().get("units").get(0);

        long[] users = sample.written.values().stream().mapToLong(counts -> counts[0]).toArray();
        Skew expected = Skew.of(users);
        assertThat(unit.get("root").asText()).isEqualTo(USER);
        assertThat(unit.get("policy").asText()).isEqualTo("hash");
        assertThat(unit.get("unitSkew").get("max").asLong()).isEqualTo(Arrays.stream(users).max().orElseThrow());
        assertThat(unit.get("unitSkew").get("min").asLong()).isEqualTo(Arrays.stream(users).min().orElseThrow());
        assertThat(unit.get("unitSkew").get("maxOverMin").asDouble()).isCloseTo(expected.maxOverMin(), org.assertj.core.data.Offset.offset(1e-4));
        assertThat(unit.get("unitSkew").get("coefficientOfVariation").asDouble())
                .isCloseTo(expected.coefficientOfVariation(), org.assertj.core.data.Offset.offset(1e-4));
    }

    @Test
    void textShowsTheShardsAndNeverThePassword() {
        CliRun run = status();

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("map version 1, 64 virtual shards")
                .containsPattern("s0\\s+ONLINE\\s+16\\s+" + sample.written.get("s0")[0] + "\\s")
                .contains("User").contains("Status").contains("Photo").contains("Country")
                .contains("operations in progress: none");
        assertThat(run.out() + run.err()).doesNotContain(sample.password);
        assertThat(run.err()).isEmpty();
    }

    @Test
    void anUnreachableShardIsListedAndTheOthersCountedWithExitCode4() throws Exception {
        String settings = java.nio.file.Files.readString(sample.settingsFile)
                .replaceAll("atomicshards.shard.s3.url=.*", "atomicshards.shard.s3.url=jdbc:h2:tcp://127.0.0.1:1/nowhere")
                + "\natomicshards.pool.connection_timeout_ms=2000\n";
        Path file = directory.resolve("s3-down.properties");
        java.nio.file.Files.writeString(file, settings);

        CliRun run = CliRun.of(sample.environment(), "status", "--config", file.toString(), "--json");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.UNAVAILABLE);
        JsonNode s3 = run.json().get("shards").get(3);
        assertThat(s3.get("reachable").asBoolean()).isFalse();
        assertThat(s3.get("url").asText()).isEqualTo("jdbc:h2:tcp://127.0.0.1:1/nowhere");
        assertThat(s3.get("error").asText()).startsWith("Shard 's3' (jdbc:h2:tcp://127.0.0.1:1/nowhere) is unavailable");
        assertThat(run.json().get("shards").get(0).get("rows").get(USER).asLong()).isEqualTo(sample.written.get("s0")[0]);
        assertThat(run.json().get("units").get(0).get("unitsPerShard").size()).isEqualTo(3);
    }

    @Test
    void aWrongPasswordIsOneLineWithoutThePassword() {
        CliRun run = CliRun.of(Map.of("ATOMICSHARDS_SHARD_S0_PASSWORD", "not-the-password"),
                "status", "--config", sample.settingsFile.toString());

        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.err()).doesNotContain("not-the-password").doesNotContain(sample.password)
                .doesNotContain("\tat ");
    }
}
