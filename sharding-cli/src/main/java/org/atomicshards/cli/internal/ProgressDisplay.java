package org.atomicshards.cli.internal;

import java.io.PrintWriter;
import java.time.Duration;

import org.atomicshards.hibernate.admin.MoveProgress;

/**
 * Shows the progress of the moves a command runs: a progress bar on a terminal, plain lines otherwise (a pipe, a
 * log file, {@code --json}), always on stderr so that the result on stdout stays clean. Receives the snapshots of
 * every move of the command (a drain or a rebalance runs several, one after the other).
 */
public interface ProgressDisplay extends MoveProgress.Listener, AutoCloseable {

    /** The command's moves all finished (not called when one failed). */
    default void finished() {
    }

    /** Ends the display; prints the last snapshot if it was not shown yet. Never throws. */
    @Override
    void close();

    /**
     * The display for this process: a bar when stdout and stderr are a terminal and the output is not JSON, lines
     * otherwise.
     *
     * @param err where lines go (the bar writes to the terminal itself)
     */
    static ProgressDisplay open(PrintWriter err, boolean json) {
        if (!json && onTerminal()) {
            return new ProgressBarDisplay();
        }
        return new ProgressLines(err, Duration.ofSeconds(1));
    }

    /**
     * Whether the process runs on a terminal. Before Java 22 {@code System.console()} is null when a stream is
     * redirected; from Java 22 it is not, and {@code Console.isTerminal()} (called reflectively: the tool is built for
     * Java 17) says it.
     */
    private static boolean onTerminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /** A duration as {@code h:mm:ss}. */
    static String clock(Duration duration) {
        long seconds = Math.max(0, duration.toSeconds());
        return String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }

    /** The first 8 characters of an operation id: enough to tell the operations of a run apart. */
    static String shortId(String operationId) {
        return operationId.length() <= 8 ? operationId : operationId.substring(0, 8);
    }
}
