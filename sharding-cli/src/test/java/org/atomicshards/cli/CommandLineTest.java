package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Help, usage errors and failures: one line on stderr, a documented exit code, no stack trace. */
class CommandLineTest {

    @TempDir
    Path directory;

    @ParameterizedTest
    @ValueSource(strings = {"", "status", "verify", "schema", "schema create", "schema update", "schema validate",
            "schema migrate", "advise", "migrate", "migrate check",
            "adopt", "add-shard", "move", "split", "merge", "drain", "rebalance", "resume", "operations"})
    void everyCommandHasHelpWithTheExitCodes(String command) {
        String[] args = (command + " --help").trim().split(" ");

        CliRun run = CliRun.of(Map.of(), args);

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("Usage: atomicshards" + (command.isEmpty() ? "" : " " + command))
                .contains("Exit codes:").contains("4   the catalog or a shard could not be reached")
                .contains("7   a move stopped part way: fix the cause, then run resume");
    }

    @Test
    void aMissingCommandOrOptionIsAUsageError() {
        assertThat(CliRun.of(Map.of()).exitCode()).isEqualTo(ExitCodes.USAGE);
        CliRun run = CliRun.of(Map.of(), "status");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).startsWith("error: Missing required option: '--config=FILE'");
    }

    @Test
    void aMissingSettingsFileIsOneLineWithExitCode3() {
        CliRun run = CliRun.of(Map.of(), "status", "--config", directory.resolve("nope.properties").toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).startsWith("error: Settings file ").contains("nope.properties (option --config) does not exist")
                .hasLineCount(1);
    }

    @Test
    void anInvalidSettingIsReportedAsTheRuntimeNamesIt() throws Exception {
        Path settings = write("atomicshards.shards=s0\natomicshards.shard.s0.url=jdbc:h2:mem:x\natomicshards.virtual_shards=zero\n");

        CliRun run = CliRun.of(Map.of(), "status", "--config", settings.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).startsWith("error: Setting 'atomicshards.virtual_shards'").hasLineCount(1);
    }

    @Test
    void anUnreachableCatalogIsExitCode4WithoutItsPassword() throws Exception {
        Path settings = write("""
                atomicshards.shards=s0
                atomicshards.shard.s0.url=jdbc:h2:mem:unreachable-catalog-s0
                atomicshards.catalog.url=jdbc:h2:tcp://127.0.0.1:1/nowhere
                atomicshards.catalog.connection_timeout_ms=500
                """);

        CliRun run = CliRun.of(Map.of("ATOMICSHARDS_CATALOG_PASSWORD", "catalog-secret"), "verify", "--config", settings.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(run.err()).startsWith("error: Cannot reach the shard catalog at jdbc:h2:tcp://127.0.0.1:1/nowhere")
                .endsWith("(--verbose shows the details)\n").hasLineCount(1).doesNotContain("catalog-secret");
    }

    @Test
    void verboseAddsTheStackTrace() throws Exception {
        Path settings = write("atomicshards.shards=s0\natomicshards.shard.s0.url=jdbc:h2:mem:x\natomicshards.virtual_shards=zero\n");

        CliRun run = CliRun.of(Map.of(), "status", "--config", settings.toString(), "--verbose");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).contains("\tat org.atomicshards.");
    }

    private Path write(String text) throws Exception {
        Path file = directory.resolve("settings.properties");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }
}
