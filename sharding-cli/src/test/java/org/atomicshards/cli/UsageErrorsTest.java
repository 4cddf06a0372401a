package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every usage error of every command is one line on stderr, {@code error: <what, and the fix>}, exit code 2, and
 * nothing on stdout: the usage is printed only when asked for with {@code --help}. The command line is rejected
 * before anything boots, so the settings file named need not exist.
 */
class UsageErrorsTest {

    private static final String CONFIG = "no-such-settings.properties";

    static Stream<Arguments> badCommandLines() {
        return Stream.of(
                Arguments.of("a range that ends before it starts",
                        new String[] {"move", "--virtual-shards", "9-3", "--to", "s1", "--config", CONFIG},
                        "error: Invalid value for option '--virtual-shards' (LIST): '9-3' has the range 9-3 ends before it "
                                + "starts. Write virtual shard numbers and ranges separated by commas, e.g. 0-3,8"),
                Arguments.of("an unknown option",
                        new String[] {"status", "--config", CONFIG, "--colour"},
                        "error: Unknown option: '--colour'"),
                Arguments.of("a missing option that every command of the catalog needs",
                        new String[] {"verify"},
                        "error: Missing required option: '--config=FILE'"),
                Arguments.of("a missing required option",
                        new String[] {"split", "--from", "s0", "--config", CONFIG},
                        "error: Missing required option: '--to=SHARD'"),
                Arguments.of("a value of the wrong type",
                        new String[] {"add-shard", "--id", "s9", "--url", "jdbc:h2:mem:s9", "--pool-size", "many",
                                "--config", CONFIG},
                        "error: Invalid value for option '--pool-size': 'many' is not an int"),
                Arguments.of("a number that is not one",
                        new String[] {"advise", "--url", "jdbc:h2:mem:app", "--virtual-shards", "lots"},
                        "error: Invalid value for option '--virtual-shards': 'lots' is not an int"),
                Arguments.of("an unknown command",
                        new String[] {"frobnicate"},
                        "error: Unmatched argument at index 0: 'frobnicate'. Did you mean "),
                Arguments.of("no command", new String[] {}, "error: Missing command: use one of"),
                Arguments.of("schema without its action",
                        new String[] {"schema"},
                        "error: Missing action: use one of [create, update, validate, migrate]"),
                Arguments.of("an unknown option of a schema action",
                        new String[] {"schema", "validate", "--config", CONFIG, "--yes"},
                        "error: Unknown option: '--yes'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCommandLines")
    void isOneLineOnStderrWithExitCode2(String what, String[] args, String expectedStart) {
        CliRun run = CliRun.of(Map.of(), args);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).as(run.toString()).isEmpty();
        assertThat(run.err()).as(run.toString()).startsWith(expectedStart).hasLineCount(1).doesNotContain("Usage:");
    }

    @Test
    void theLineSaysWhereTheUsageIs() {
        CliRun run = CliRun.of(Map.of(), "move", "--virtual-shards", "9-3", "--to", "s1", "--config", CONFIG);

        assertThat(run.err()).endsWith(" (atomicshards move --help shows the usage)\n");
    }

    @Test
    void aMisspeltOptionNamesTheOptionMeant() {
        CliRun run = CliRun.of(Map.of(), "status", "--config", CONFIG, "--jsn");

        assertThat(run.err()).as(run.toString()).isEqualTo("error: Unknown option: '--jsn'. Did you mean --json? "
                + "(atomicshards status --help shows the usage)\n");
    }

    @Test
    void theUsageIsPrintedOnlyWithHelp() {
        CliRun run = CliRun.of(Map.of(), "move", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("Usage: atomicshards move");
        assertThat(run.err()).isEmpty();
    }
}
