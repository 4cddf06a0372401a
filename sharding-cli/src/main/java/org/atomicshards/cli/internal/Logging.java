package org.atomicshards.cli.internal;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The tool's output is its report: the libraries' logging (Hibernate, HikariCP and the runtime all end in
 * {@code java.util.logging} in this jar) stays off unless {@code --verbose} asks for it, then goes to stderr at INFO.
 */
public final class Logging {

    private Logging() {
    }

    public static void configure(boolean verbose) {
        Level level = verbose ? Level.INFO : Level.OFF;
        Logger root = Logger.getLogger("");
        root.setLevel(level);
        for (Handler handler : root.getHandlers()) {
            handler.setLevel(level);
        }
    }
}
