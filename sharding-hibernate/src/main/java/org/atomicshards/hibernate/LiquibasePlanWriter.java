package org.atomicshards.hibernate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Writes a {@link ShardingPlan} as a Liquibase changelog, YAML ({@code .yaml}, {@code .yml}) or XML ({@code .xml})
 * by the file's extension: one changeset per step (author {@code atomicshards}, id {@code <n>-<step>}, restricted to
 * the plan's database with {@code dbms}), each statement one {@code sql} change that Liquibase does not split; a step
 * that commits batch by batch or builds an index concurrently has {@code runInTransaction: false}. Include the file
 * from the application's master changelog. Never overwrites a file.
 */
public final class LiquibasePlanWriter {

    private LiquibasePlanWriter() {
    }

    /**
     * @throws IllegalArgumentException if the file's extension is not .yaml, .yml or .xml
     * @throws UncheckedIOException if the file cannot be written or already exists
     */
    public static Path write(ShardingPlan plan, Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        String text;
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            text = yaml(plan);
        } else if (name.endsWith(".xml")) {
            text = xml(plan);
        } else {
            throw new IllegalArgumentException("The Liquibase changelog " + file + " must end with .yaml, .yml or "
                    + ".xml (the format is taken from it)");
        }
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the Liquibase changelog " + file + ": " + e, e);
        }
        return file;
    }

    static String dbms(ShardingPlan.Dialect dialect) {
        return switch (dialect) {
            case POSTGRESQL -> "postgresql";
            case MARIADB -> "mariadb";
            case H2 -> "h2";
        };
    }

    private static String yaml(ShardingPlan plan) {
        StringBuilder out = new StringBuilder("# Atomic Shards sharding plan, read from shard ")
                .append(plan.shard().name()).append(" (").append(plan.dialect()).append(")\ndatabaseChangeLog:\n");
        int n = 0;
        for (ShardingPlan.Step step : plan.steps()) {
            n++;
            out.append("  - changeSet:\n")
                    .append("      id: ").append(quoted(n + "-" + step.name())).append('\n')
                    .append("      author: atomicshards\n")
                    .append("      dbms: ").append(dbms(plan.dialect())).append('\n')
                    .append("      runInTransaction: ").append(step.transactional()).append('\n')
                    .append("      comment: ").append(quoted(comment(step))).append('\n')
                    .append("      changes:\n");
            for (String statement : step.statements()) {
                out.append("        - sql:\n")
                        .append("            splitStatements: false\n")
                        .append("            stripComments: false\n")
                        .append("            sql: |\n");
                statement.lines().forEach(line -> out.append("              ").append(line).append('\n'));
            }
        }
        return out.toString();
    }

    private static String xml(ShardingPlan plan) {
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<!-- Atomic Shards sharding plan, read from shard ").append(escape(plan.shard().name()))
                .append(" (").append(plan.dialect()).append(") -->\n")
                .append("<databaseChangeLog xmlns=\"http://www.liquibase.org/xml/ns/dbchangelog\"\n")
                .append("        xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n")
                .append("        xsi:schemaLocation=\"http://www.liquibase.org/xml/ns/dbchangelog ")
                .append("http://www.liquibase.org/xml/ns/dbchangelog/dbchangelog-latest.xsd\">\n");
        int n = 0;
        for (ShardingPlan.Step step : plan.steps()) {
            n++;
            out.append("    <changeSet id=\"").append(escape(n + "-" + step.name()))
                    .append("\" author=\"atomicshards\" dbms=\"").append(dbms(plan.dialect()))
                    .append("\" runInTransaction=\"").append(step.transactional()).append("\">\n")
                    .append("        <comment>").append(escape(comment(step))).append("</comment>\n");
            for (String statement : step.statements()) {
                out.append("        <sql splitStatements=\"false\" stripComments=\"false\">")
                        .append(escape(statement)).append("</sql>\n");
            }
            out.append("    </changeSet>\n");
        }
        return out.append("</databaseChangeLog>\n").toString();
    }

    private static String comment(ShardingPlan.Step step) {
        return (step.atRestart() ? "APPLY AT THE RESTART ONTO THE LIBRARY. " : "") + String.join(" ", step.comment());
    }

    private static String quoted(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
