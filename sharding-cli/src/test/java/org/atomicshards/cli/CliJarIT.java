package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.atomicshards.samples.model.User;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar ({@code sharding-cli-<version>-all.jar}) run as a real process on H2 shards in files. */
class CliJarIT {

    @TempDir
    static Path directory;

    static SampleShards sample;
    static Path model;

    @BeforeAll
    static void writeShards() throws Exception {
        sample = SampleShards.create(directory, true, 100);
        model = Path.of(User.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static CliRun java(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        Path jar = Path.of(System.getProperty("atomicshards.cli.jar", "target/sharding-cli-0.1.0-SNAPSHOT-all.jar"));
        assertThat(jar).as("the packaged jar (mvn package)").isRegularFile();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(directory.resolve("out.txt").toFile())
                .redirectError(directory.resolve("err.txt").toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("The jar did not finish within 180 s: " + command);
        }
        return new CliRun(process.exitValue(), Files.readString(directory.resolve("out.txt"), StandardCharsets.UTF_8),
                Files.readString(directory.resolve("err.txt"), StandardCharsets.UTF_8));
    }

    @Test
    void statusAndVerifyFromTheJar() throws Exception {
        CliRun status = java(sample.environment(), "status", "--config", sample.settingsFile.toString(),
                "--model", model.toString(), "--json");

        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(status.err()).as("no log lines without --verbose").isEmpty();
        JsonNode json = new ObjectMapper().readTree(status.out());
        for (JsonNode shard : json.get("shards")) {
            assertThat(shard.get("rows").get(User.class.getName()).asLong())
                    .isEqualTo(sample.written.get(shard.get("id").asText())[0]);
        }

        CliRun verify = java(sample.environment(), "verify", "--config", sample.settingsFile.toString(), "--model", model.toString());
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).startsWith("checked 100 units (3 entity types) and 1 reference-data types on 4 shards: all consistent");
    }

    @Test
    void aRebalanceDryRunFromTheJarPrintsThePlanAndChangesNothing() throws Exception {
        CliRun plan = java(sample.environment(), "rebalance", "--dry-run", "--config", sample.settingsFile.toString(),
                "--model", model.toString());

        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.out()).startsWith("rebalance plan (dry run, nothing changed):")
                .contains("nothing to move: the shards are even");
        assertThat(plan.err()).isEmpty();
    }

    @Test
    void withoutTheModelTheJarSaysHowToGiveIt() throws Exception {
        CliRun run = java(sample.environment(), "status", "--config", sample.settingsFile.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).startsWith("error: No entity model: no META-INF/atomic-shards/units.properties in the class path. Fix: pass --model")
                .hasLineCount(1);
    }
}
