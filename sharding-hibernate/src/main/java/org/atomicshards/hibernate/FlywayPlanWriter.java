package org.atomicshards.hibernate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes a {@link ShardingPlan} as Flyway versioned SQL migrations: one {@code V<n>__<step>.sql} per step, numbered
 * after the highest version of the {@code V} files already under the directory (searched recursively, as Flyway
 * does), each with a header saying what it does and when to apply it. A step that must run outside a transaction gets
 * the script configuration file {@code V<n>__<step>.sql.conf} with {@code executeInTransaction=false}. A MariaDB
 * procedure is written between {@code DELIMITER} lines. Never overwrites a file.
 */
public final class FlywayPlanWriter {

    private static final Pattern VERSIONED = Pattern.compile("V(\\d+)(?:[._]\\d+)*__.*\\.sql");

    private FlywayPlanWriter() {
    }

    /**
     * @param directory a Flyway location on the file system; created if missing
     * @return the files written, in order (none for an empty plan)
     * @throws IllegalArgumentException if {@code directory} is a file
     * @throws UncheckedIOException if a file cannot be written (or already exists: nothing is overwritten)
     */
    public static List<Path> write(ShardingPlan plan, Path directory) {
        if (Files.exists(directory) && !Files.isDirectory(directory)) {
            throw new IllegalArgumentException("The Flyway migration directory " + directory + " is a file: give the "
                    + "directory of the application's versioned migrations");
        }
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(directory);
            BigInteger version = highestVersion(directory);
            for (ShardingPlan.Step step : plan.steps()) {
                version = version.add(BigInteger.ONE);
                Path file = directory.resolve("V" + version + "__" + step.name() + ".sql");
                Files.writeString(file, script(plan, step), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
                written.add(file);
                if (!step.transactional()) {
                    Path conf = directory.resolve(file.getFileName() + ".conf");
                    Files.writeString(conf, "executeInTransaction=false\n", StandardCharsets.UTF_8,
                            StandardOpenOption.CREATE_NEW);
                    written.add(conf);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the Flyway migrations to " + directory + ": " + e
                    + (written.isEmpty() ? "" : " (written before the failure: " + written + ")"), e);
        }
        return written;
    }

    /** The highest major version of the versioned migrations under {@code directory}, 0 without any. */
    static BigInteger highestVersion(Path directory) throws IOException {
        BigInteger highest = BigInteger.ZERO;
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Matcher matcher = VERSIONED.matcher(file.getFileName().toString());
                if (Files.isRegularFile(file) && matcher.matches()) {
                    highest = highest.max(new BigInteger(matcher.group(1)));
                }
            }
        }
        return highest;
    }

    private static String script(ShardingPlan plan, ShardingPlan.Step step) {
        StringBuilder sql = new StringBuilder();
        sql.append("-- Atomic Shards sharding plan, read from shard ").append(plan.shard().name()).append(" (")
                .append(plan.dialect()).append("): ").append(step.name()).append('\n');
        step.comment().forEach(line -> sql.append("-- ").append(line).append('\n'));
        if (step.atRestart()) {
            sql.append("-- APPLY AT THE RESTART ONTO THE LIBRARY, not while the old application runs.\n");
        }
        for (String statement : step.statements()) {
            sql.append('\n');
            if (plan.dialect() == ShardingPlan.Dialect.MARIADB && statement.contains(";")) {
                sql.append("DELIMITER //\n").append(statement).append("\n//\nDELIMITER ;\n");
            } else {
                sql.append(statement).append(";\n");
            }
        }
        return sql.toString();
    }
}
