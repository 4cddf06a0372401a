package org.atomicshards.cli.internal;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.CatalogException;
import org.atomicshards.hibernate.CatalogUnavailableException;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.ShardedModelException;
import org.atomicshards.hibernate.UnknownShardException;
import org.atomicshards.hibernate.admin.MoveFailedException;
import org.atomicshards.hibernate.admin.ReshardingConflictException;
import org.atomicshards.hibernate.admin.ShardTopologyException;
import org.atomicshards.hibernate.internal.config.Redaction;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns any failure of a command into one line on stderr, {@code error: <message>}, and an exit code from
 * {@link ExitCodes}; with {@code --verbose} the stack trace follows. Messages pass through the runtime's URL
 * redaction, so a password inside a JDBC URL never reaches the terminal.
 */
public final class Errors implements IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception exception, CommandLine commandLine, ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        err.println("error: " + message(exception) + (verbose(parseResult) ? "" : " (--verbose shows the details)"));
        if (verbose(parseResult)) {
            StringWriter trace = new StringWriter();
            exception.printStackTrace(new PrintWriter(trace));
            err.print(Redaction.url(trace.toString()));
        }
        err.flush();
        return exitCode(exception);
    }

    /** The exit code for a failure. */
    public static int exitCode(Throwable exception) {
        if (exception instanceof CliException cli) {
            return cli.exitCode();
        }
        Throwable ours = ours(exception);
        if (ours instanceof MoveFailedException) {
            return ExitCodes.MOVE_FAILED;
        }
        if (ours instanceof ReshardingConflictException || ours instanceof ShardTopologyException) {
            return ExitCodes.CONFLICT;
        }
        if (ours instanceof CatalogUnavailableException || ours instanceof ShardUnavailableException) {
            return ExitCodes.UNAVAILABLE;
        }
        if (ours instanceof ShardConfigurationException || ours instanceof ShardedModelException
                || ours instanceof UnknownShardException || ours instanceof CatalogException) {
            return ExitCodes.CONFIGURATION;
        }
        return ExitCodes.FAILED;
    }

    /** The message of a failure on one line, without credentials. */
    public static String message(Throwable exception) {
        Throwable shown = exception instanceof CliException ? exception : ours(exception);
        String message = shown.getMessage();
        if (message == null || message.isBlank()) {
            message = shown.getClass().getName();
        } else if (!(shown instanceof AtomicShardsException) && !(shown instanceof CliException)) {
            message = shown.getClass().getSimpleName() + ": " + message;
        }
        return Redaction.url(message.replaceAll("\\s*\\R\\s*", " ").strip());
    }

    /** Our own exception in the cause chain (Hibernate wraps what its boot calls throw), else the failure itself. */
    private static Throwable ours(Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof AtomicShardsException || t instanceof CliException) {
                return t;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return exception;
    }

    /** Whether {@code --verbose} was given to the command that ran. */
    public static boolean verbose(ParseResult parseResult) {
        for (ParseResult result = parseResult; result != null; result = result.subcommand()) {
            if (result.hasMatchedOption(OutputOptions.VERBOSE)) {
                return true;
            }
        }
        return false;
    }
}
