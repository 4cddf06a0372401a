package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.cli.internal.TextTable;
import org.atomicshards.hibernate.ShardingGap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code migrate check}: whether the live schema of every shard is what the annotated model needs to be sharded. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Compare the live schema with what the annotated model needs to be sharded (check).",
        subcommands = {MigrateCommand.Check.class})
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
}
