package org.atomicshards.hibernate;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Turns every java.util.logging logger to {@code ALL} (DEBUG and TRACE) and records every line, formatted and raw,
 * with its parameters and stack trace. In the tests everything logs through java.util.logging: Hibernate (JBoss
 * Logging's JDK backend), pgjdbc (natively), HikariCP and MariaDB Connector/J (SLF4J through slf4j-jdk14).
 * {@link #close()} restores the levels.
 */
final class LogCapture implements AutoCloseable {

    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Level> previousLevels = new HashMap<>();
    private final Logger root = Logger.getLogger("");
    private final SimpleFormatter formatter = new SimpleFormatter();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            StringBuilder line = new StringBuilder(record.getInstant() + " " + record.getLoggerName() + " " + record.getLevel() + " ");
            line.append(formatter.formatMessage(record)).append(" | raw: ").append(record.getMessage());
            if (record.getParameters() != null) {
                line.append(" | parameters: ").append(Arrays.deepToString(record.getParameters()));
            }
            if (record.getThrown() != null) {
                line.append('\n').append(stackTrace(record.getThrown()));
            }
            lines.add(line.toString());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    LogCapture() {
        LogManager manager = LogManager.getLogManager();
        for (String name : Collections.list(manager.getLoggerNames())) {
            Logger logger = manager.getLogger(name);
            if (logger != null) {
                previousLevels.put(name, logger.getLevel());
                logger.setLevel(Level.ALL);
            }
        }
        previousLevels.put("", root.getLevel());
        root.setLevel(Level.ALL);
        handler.setLevel(Level.ALL);
        root.addHandler(handler);
        // Loggers created from here on inherit ALL from the root; the console handler keeps its own level (INFO).
    }

    /** Every line logged so far, one string (message, raw message, parameters, stack trace). */
    String all() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    int lineCount() {
        return lines.size();
    }

    /** The throwable's stack trace with all causes and suppressed exceptions, as printed. */
    static String stackTrace(Throwable thrown) {
        StringWriter text = new StringWriter();
        thrown.printStackTrace(new PrintWriter(text));
        return text.toString();
    }

    @Override
    public void close() {
        root.removeHandler(handler);
        LogManager manager = LogManager.getLogManager();
        for (String name : Collections.list(manager.getLoggerNames())) {
            Logger logger = manager.getLogger(name);
            if (logger != null) {
                logger.setLevel(previousLevels.get(name));
            }
        }
    }
}
