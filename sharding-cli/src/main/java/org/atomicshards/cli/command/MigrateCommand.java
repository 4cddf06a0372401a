package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.CliException;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.cli.internal.TextTable;
import org.atomicshards.hibernate.FlywayPlanWriter;
import org.atomicshards.hibernate.LiquibasePlanWriter;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardSchemaException;
import org.atomicshards.hibernate.ShardingGap;
import org.atomicshards.hibernate.ShardingPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code migrate check}: whether the live schema of every shard is what the annotated model needs to be sharded;
 * {@code migrate plan}: the migrations that close the gaps, written for Flyway or Liquibase.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Compare the live schema with what the annotated model needs to be sharded (check), and write "
                + "the migrations that close the gaps (plan).",
        subcommands = {MigrateCommand.Check.class, MigrateCommand.Plan.class})
public final class MigrateCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing action: use one of " + spec.subcommands().keySet());
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Read each shard's schema (JDBC metadata, and one probe per key column for rows without a "
                    + "key) and list what the model still needs: a key column on a member table, keys in every row, "
                    + "NOT NULL, an index leading with the key, ids the database no longer generates. Changes no "
                    + "table of the application; the catalog is created if missing, as for adopt. Run it against "
                    + "the one database before adopt.",
                    "Exit code 0 when the schema matches the model, 1 listing every gap."})
    static final class Check extends ClusterCommand {

        Check(Map<String, String> environment) {
            super(environment);
        }

        @Override
        protected Cluster.Access access() {
            return Cluster.Access.ADMIN;
        }

        @Override
        protected int run(Cluster cluster, PrintWriter out) {
            List<ShardingGap> gaps = cluster.shards().schema().shardingGaps();
            if (json()) {
                List<Map<String, Object>> list = new ArrayList<>();
                for (ShardingGap gap : gaps) {
                    Map<String, Object> item = new LinkedHashMap<>();
                    item.put("shard", gap.shard().name());
                    item.put("kind", gap.kind().name());
                    item.put("table", gap.table());
                    item.put("column", gap.column());
                    item.put("detail", gap.detail());
                    list.add(item);
                }
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("matches", gaps.isEmpty());
                json.put("gaps", list);
                out.print(Json.write(json));
            } else if (gaps.isEmpty()) {
                out.printf("the schema of %d shard(s) %s matches the model%n", cluster.shards().shards().size(),
                        cluster.shards().shards());
            } else {
                out.printf("%d gap(s) between the schema and the model:%n", gaps.size());
                TextTable table = new TextTable("gap", "column", "shard", "detail");
                gaps.forEach(gap -> table.row(gap.kind().name(), gap.table() + "." + gap.column(), gap.shard().name(),
                        gap.detail()));
                out.print(table);
            }
            return gaps.isEmpty() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
        }
    }

    @Command(name = "plan", mixinStandardHelpOptions = true,
            description = {"Read one shard's schema as check does and write the migrations that close its gaps, in "
                    + "its database's SQL (PostgreSQL, MariaDB, H2), for Flyway (--flyway DIR: V<n>__<step>.sql "
                    + "numbered after the highest version in DIR) or Liquibase (--liquibase FILE, .yaml or .xml): "
                    + "the key columns added, filled in committed batches from the rows they reference, NOT NULL, "
                    + "the indexes leading with the key, and the database's id generation dropped (applied at the "
                    + "restart). Changes no table; writes no file when there is no gap.",
                    "Exit code 0 when written (or nothing to plan), 2 on a wrong option or shard, 5 when a gap "
                            + "cannot be planned or a file cannot be written (nothing is overwritten)."})
    static final class Plan extends ClusterCommand {

        @Option(names = "--shard", paramLabel = "SHARD",
                description = "The shard whose schema is read; default: the only shard listed in atomicshards.shards.")
        private String shard;

        @Option(names = "--flyway", paramLabel = "DIR",
                description = "Write Flyway SQL migrations into DIR (created if missing).")
        private Path flyway;

        @Option(names = "--liquibase", paramLabel = "FILE",
                description = "Write a Liquibase changelog to FILE; .yaml, .yml or .xml.")
        private Path liquibase;

        @Option(names = "--batch-size", paramLabel = "IDS", defaultValue = "1000",
                description = "How many ids each committed batch of the fill covers (default: ${DEFAULT-VALUE}).")
        private int batchSize;

        Plan(Map<String, String> environment) {
            super(environment);
        }

        @Override
        protected Cluster.Access access() {
            return Cluster.Access.ADMIN;
        }

        @Override
        protected void checkOptions() {
            if (flyway == null && liquibase == null) {
                throw new CliException(ExitCodes.USAGE, "migrate plan writes for a migration tool. Fix: give "
                        + "--flyway DIR, --liquibase FILE, or both");
            }
            if (batchSize < 1) {
                throw new CliException(ExitCodes.USAGE, "--batch-size must be at least 1, not " + batchSize);
            }
            if (liquibase != null && !liquibase.getFileName().toString().matches("(?i).*\\.(ya?ml|xml)")) {
                throw new CliException(ExitCodes.USAGE, "--liquibase " + liquibase + ": the changelog's format is "
                        + "taken from its extension. Fix: end it with .yaml, .yml or .xml");
            }
        }

        @Override
        protected int run(Cluster cluster, PrintWriter out) {
            List<ShardId> shards = cluster.shards().shards();
            ShardId id;
            if (shard != null) {
                id = ShardId.of(shard);
                if (!shards.contains(id)) {
                    throw new CliException(ExitCodes.USAGE, "--shard " + shard + " is not one of the shards "
                            + shards + " (atomicshards.shards)");
                }
            } else if (shards.size() == 1) {
                id = shards.get(0);
            } else {
                throw new CliException(ExitCodes.USAGE, "The settings file lists the shards " + shards + " in "
                        + "atomicshards.shards; migrate plan reads one. Fix: name it with --shard");
            }
            ShardingPlan plan;
            List<Path> files = new ArrayList<>();
            try {
                plan = cluster.shards().schema().shardingPlan(id, batchSize);
                if (!plan.steps().isEmpty() && flyway != null) {
                    files.addAll(FlywayPlanWriter.write(plan, flyway));
                }
                if (!plan.steps().isEmpty() && liquibase != null) {
                    files.add(LiquibasePlanWriter.write(plan, liquibase));
                }
            } catch (ShardSchemaException | UncheckedIOException e) {
                throw new CliException(ExitCodes.FAILED, e.getMessage()
                        + (files.isEmpty() ? "" : " (written before the failure: " + files + ")"), e);
            }
            if (json()) {
                List<Map<String, Object>> steps = new ArrayList<>();
                for (ShardingPlan.Step step : plan.steps()) {
                    Map<String, Object> item = new LinkedHashMap<>();
                    item.put("name", step.name());
                    item.put("transactional", step.transactional());
                    item.put("atRestart", step.atRestart());
                    item.put("statements", step.statements().size());
                    steps.add(item);
                }
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("shard", id.name());
                json.put("dialect", plan.dialect().name());
                json.put("steps", steps);
                json.put("files", files.stream().map(Path::toString).toList());
                out.print(Json.write(json));
            } else if (plan.steps().isEmpty()) {
                out.printf("nothing to plan: the schema of shard %s matches the model; no file written%n", id);
            } else {
                out.printf("%d step(s) for shard %s (%s), apply in order:%n", plan.steps().size(), id, plan.dialect());
                for (ShardingPlan.Step step : plan.steps()) {
                    out.printf("  %s%s%n", step.name(), step.atRestart() ? "  (at the restart onto the library)" : "");
                }
                files.forEach(file -> out.println("wrote " + file));
            }
            return ExitCodes.OK;
        }
    }
}
