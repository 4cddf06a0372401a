package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.CliException;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.hibernate.IndexReport;
import org.atomicshards.hibernate.ShardIndexException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code index build|verify ENTITY ATTRIBUTE}: an index of a {@code @ShardIndex} attribute, through the runtime. */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = "Build the index of a @ShardIndex attribute from the rows already on the shards (online, "
                + "rerunnable), or verify it against the rows.",
        subcommands = {IndexCommand.Build.class, IndexCommand.Verify.class})
public final class IndexCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing action: use one of " + spec.subcommands().keySet());
    }

    /** The shared part: the entity and attribute, the report printed as text or JSON. */
    abstract static class Action extends ClusterCommand {

        @Parameters(index = "0", paramLabel = "ENTITY", description = "The entity class (full or simple name).")
        private String entity;

        @Parameters(index = "1", paramLabel = "ATTRIBUTE", description = "The attribute marked @ShardIndex.")
        private String attribute;

        Action(Map<String, String> environment) {
            super(environment);
        }

        @Override
        protected Cluster.Access access() {
            return Cluster.Access.ADMIN;
        }

        abstract String name();

        abstract IndexReport apply(Cluster cluster, Class<?> type, String attribute);

        /** The exit code of a report. */
        int exitCode(IndexReport report) {
            return ExitCodes.OK;
        }

        @Override
        protected int run(Cluster cluster, PrintWriter out) {
            Class<?> type = cluster.entityClass(entity);
            IndexReport report;
            try {
                report = apply(cluster, type, attribute);
            } catch (ShardIndexException e) {
                throw new CliException(ExitCodes.USAGE, e.getMessage(), e);
            }
            if (json()) {
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("action", name());
                json.put("index", report.index());
                json.put("rows", report.rows());
                json.put("entries", report.entries());
                json.put("missing", report.missing());
                json.put("stale", report.stale());
                json.put("conflicts", report.conflicts());
                json.put("cleaned", report.cleaned());
                json.put("consistent", report.isConsistent());
                out.print(Json.write(json));
            } else {
                out.printf("index %s %s: %d rows, %d entries, %d missing, %d stale, %d conflicts, %d cleaned%n",
                        name(), report.index(), report.rows(), report.entries(), report.missing(), report.stale(),
                        report.conflicts(), report.cleaned());
            }
            return exitCode(report);
        }
    }

    @Command(name = "build", mixinStandardHelpOptions = true,
            description = "Write the entry of every row's value while the application runs; run it again to resume. "
                    + "Values of a unique index held by several units are counted as conflicts.")
    static final class Build extends Action {

        Build(Map<String, String> environment) {
            super(environment);
        }

        @Override
        String name() {
            return "build";
        }

        @Override
        IndexReport apply(Cluster cluster, Class<?> type, String attribute) {
            return cluster.shards().indexes().build(type, attribute);
        }
    }

    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Check every row against the entries and every entry against its unit; exit code 1 when a "
                    + "row is missing from the index or a unique value is held twice.")
    static final class Verify extends Action {

        @Option(names = "--clean", description = "Delete the stale entries older than the claim timeout.")
        private boolean clean;

        Verify(Map<String, String> environment) {
            super(environment);
        }

        @Override
        String name() {
            return "verify";
        }

        @Override
        IndexReport apply(Cluster cluster, Class<?> type, String attribute) {
            return cluster.shards().indexes().verify(type, attribute, clean);
        }

        @Override
        int exitCode(IndexReport report) {
            return report.isConsistent() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
        }
    }
}
