package org.atomicshards.cli;

import java.util.Map;

import org.atomicshards.cli.internal.Errors;
import org.atomicshards.cli.internal.Logging;
import org.atomicshards.cli.internal.UsageErrors;
import picocli.CommandLine;

/**
 * The {@code atomicshards} command: {@code java -jar sharding-cli-<version>-all.jar <command> ...}. Exit codes are
 * listed in {@link ExitCodes}.
 */
public final class Main {

    private Main() {
    }

    private static void withExitCodes(CommandLine commandLine) {
        commandLine.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodes.helpList());
        commandLine.getSubcommands().values().forEach(Main::withExitCodes);
    }

    public static void main(String[] args) {
        System.exit(commandLine(System.getenv()).execute(args));
    }

    /**
     * The configured command line, for {@link CommandLine#execute} (tests capture its output with
     * {@link CommandLine#setOut} / {@link CommandLine#setErr}).
     *
     * @param environment where users and passwords are looked up (see {@code --config}'s help)
     */
    public static CommandLine commandLine(Map<String, String> environment) {
        CommandLine commandLine = new CommandLine(new AtomicShardsCommand(), new CliFactory(environment));
        commandLine.setExecutionExceptionHandler(new Errors());
        commandLine.setParameterExceptionHandler(new UsageErrors());
        commandLine.setExecutionStrategy(parseResult -> {
            Logging.configure(Errors.verbose(parseResult));
            return new CommandLine.RunLast().execute(parseResult);
        });
        commandLine.setUsageHelpAutoWidth(true);
        withExitCodes(commandLine);
        return commandLine;
    }
}
