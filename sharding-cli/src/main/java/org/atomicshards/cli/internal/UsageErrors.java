package org.atomicshards.cli.internal;

import java.io.PrintWriter;
import java.util.List;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.hibernate.internal.config.Redaction;
import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every usage error of every command (an unknown option or command, a missing required option, a value that
 * does not convert, a missing subcommand) into one line on stderr, {@code error: <what> [Did you mean ...?] (<command>
 * --help shows the usage)}, and {@link ExitCodes#USAGE}. Nothing goes to stdout, and the usage itself is printed only
 * by {@code --help}. Like {@link Errors}, the line passes through the runtime's URL redaction, since it may echo an
 * argument.
 */
public final class UsageErrors implements IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException exception, String[] args) {
        CommandLine commandLine = exception.getCommandLine();
        PrintWriter err = commandLine.getErr();
        err.println(line(exception));
        err.flush();
        return ExitCodes.USAGE;
    }

    /** The one line reporting {@code exception}, without its line break. */
    static String line(ParameterException exception) {
        String message = String.valueOf(exception.getMessage()).replaceAll("\\s*\\R\\s*", " ").strip();
        StringBuilder line = new StringBuilder("error: ").append(message);
        if (exception instanceof UnmatchedArgumentException unmatched) {
            List<String> suggestions = unmatched.getSuggestions();
            if (!suggestions.isEmpty()) {
                line.append(message.endsWith(".") ? " " : ". ")
                        .append("Did you mean ").append(String.join(" or ", suggestions)).append('?');
            }
        }
        line.append(" (").append(exception.getCommandLine().getCommandSpec().qualifiedName())
                .append(" --help shows the usage)");
        return Redaction.url(line.toString());
    }
}
