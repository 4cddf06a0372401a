package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code schema migrate} and the schema versions in {@code status} and {@code verify}, on the samples' four H2 shards
 * with Flyway migrations of their own: shards on different versions are flagged (verify fails), {@code schema
 * migrate} brings every shard up, and without a migration tool it is a configuration error.
 */
class SchemaMigrateCommandTest {

    private static final String LOCATIONS = "classpath:db/cli-migrations";

    @TempDir
    Path directory;

    private SampleShards withFlyway() throws Exception {
        SampleShards sample = SampleShards.create(directory, false, 20);
        // the samples' shards have tables (made by Hibernate) and no Flyway history: baseline them at 0
        Files.writeString(sample.settingsFile, "atomicshards.migrations.tool=flyway\n"
                + "atomicshards.migrations.locations=" + LOCATIONS + "\n"
                + "atomicshards.migrations.baseline_version=0\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        return sample;
    }

    @Test
    void shardsOnDifferentVersionsAreFlaggedAndMigrateBringsThemUp() throws Exception {
        SampleShards sample = withFlyway();
        Flyway.configure().dataSource(sample.settings.get("atomicshards.shard.s0.url"),
                sample.settings.get("atomicshards.shard.s0.user"), sample.password).locations(LOCATIONS).target("1")
                .baselineOnMigrate(true).baselineVersion("0")
                .load().migrate();

        CliRun before = sample.run("status", "--json");
        assertThat(before.exitCode()).as(before.toString()).isZero();
        JsonNode versions = before.json().get("schemaVersions");
        assertThat(versions.get("s0").asText()).isEqualTo("1");
        assertThat(versions.get("s1").isNull()).as(versions.toString()).isTrue(); // tables, but no history yet
        assertThat(before.json().get("schemaVersionsDiffer").asBoolean()).isTrue();
        CliRun verify = sample.run("verify");
        assertThat(verify.exitCode()).as(verify.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(verify.out()).contains("SCHEMA_VERSION_DIFFERS").contains("schema version none, others at 1");

        CliRun migrate = sample.run("schema migrate");
        assertThat(migrate.exitCode()).as(migrate.toString()).isZero();
        assertThat(migrate.out()).contains("schema migrate: done on 4 shards").contains("s0: version 2")
                .contains("s3: version 2");

        CliRun after = sample.run("status");
        assertThat(after.exitCode()).as(after.toString()).isZero();
        assertThat(after.out()).contains("schema versions: s0 2, s1 2, s2 2, s3 2");
        CliRun verified = sample.run("verify");
        assertThat(verified.exitCode()).as(verified.toString()).isZero();
    }

    @Test
    void withoutAMigrationToolItIsAConfigurationError() throws Exception {
        SampleShards sample = SampleShards.create(directory, false, 5);

        CliRun migrate = sample.run("schema migrate");

        assertThat(migrate.exitCode()).as(migrate.toString()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(migrate.err()).startsWith("error: Setting 'atomicshards.migrations.tool' is none in the settings "
                + "file").contains("Fix: set it to flyway").hasLineCount(1);
    }
}
