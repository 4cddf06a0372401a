package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaCommandTest {

    @TempDir
    Path directory;

    @Test
    void validateFindsTheShardWhoseTablesDifferAndUpdateRepairsIt() throws Exception {
        SampleShards sample = SampleShards.create(directory, false, 5);
        String config = sample.settingsFile.toString();

        assertThat(CliRun.of(sample.environment(), "schema", "validate", "--config", config).exitCode()).isZero();

        try (Connection connection = DriverManager.getConnection(sample.settings.get("atomicshards.shard.s2.url"), "app", sample.password);
             Statement statement = connection.createStatement()) {
            statement.execute("drop table Photo");
        }
        CliRun invalid = CliRun.of(sample.environment(), "schema", "validate", "--config", config, "--json");
        assertThat(invalid.exitCode()).as(invalid.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(invalid.json().get("ok").asBoolean()).isFalse();
        assertThat(invalid.json().get("error").asText()).contains("s2").containsIgnoringCase("Photo");

        CliRun update = CliRun.of(sample.environment(), "schema", "update", "--config", config);
        assertThat(update.exitCode()).as(update.toString()).isZero();
        assertThat(update.out()).isEqualTo("schema update: done on 4 shards [s0, s1, s2, s3]\n");
        assertThat(CliRun.of(sample.environment(), "schema", "validate", "--config", config).exitCode()).isZero();
    }

    @Test
    void createNeedsYesBeforeAnythingIsTouched() throws Exception {
        SampleShards sample = SampleShards.create(directory, false, 5);

        CliRun run = CliRun.of(sample.environment(), "schema", "create", "--config", sample.settingsFile.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).startsWith("error: schema create drops every mapped table on every shard. Fix: add --yes");
        CliRun status = CliRun.of(sample.environment(), "status", "--config", sample.settingsFile.toString(), "--json");
        assertThat(status.json().get("units").get(0).get("unitsPerShard").properties())
                .extracting(entry -> entry.getValue().asLong()).containsOnly(sample.written.values().stream()
                        .map(counts -> counts[0]).toArray(Long[]::new));
    }
}
