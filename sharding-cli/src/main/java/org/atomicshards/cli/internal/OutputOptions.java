package org.atomicshards.cli.internal;

import picocli.CommandLine.Option;

/** How the result is printed. */
public final class OutputOptions {

    /** The option that turns on stack traces and library logging; read by the error handler from the parse result. */
    public static final String VERBOSE = "--verbose";

    @Option(names = "--json", description = "Print the result as JSON (for scripts) instead of tables.")
    private boolean json;

    @Option(names = {"-v", VERBOSE}, description = "Log what Hibernate, HikariCP and Atomic Shards do (to stderr) and "
            + "print the stack trace of an error.")
    private boolean verbose;

    public boolean json() {
        return json;
    }

    public boolean verbose() {
        return verbose;
    }
}
