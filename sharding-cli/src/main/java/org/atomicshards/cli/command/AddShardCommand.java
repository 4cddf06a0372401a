package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.CliException;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.cli.internal.SettingsFile;
import org.atomicshards.hibernate.admin.NewShard;
import org.atomicshards.hibernate.admin.ReferenceDataDivergence;
import org.atomicshards.hibernate.admin.ShardAdded;
import org.atomicshards.hibernate.admin.ShardAdmin;
import org.atomicshards.hibernate.internal.config.Redaction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code add-shard}: a new physical shard, recorded in the catalog; it owns nothing until virtual shards move to it. */
@Command(name = "add-shard", mixinStandardHelpOptions = true,
        description = {"Add a physical shard: checks the database (reachable, the same kind as the others), creates "
                + "the mapped tables on it, copies the reference data that is missing there, and records the shard in "
                + "the catalog (the URL without credentials). It owns no virtual shard yet: use move, split or "
                + "rebalance next. Every instance, and this tool, connects to it with the user and password of its "
                + "own configuration (atomicshards.shard.<id>.user / .password, or the environment variables below).",
                "The password is read from ATOMICSHARDS_SHARD_<ID>_PASSWORD, never from the command line.",
                "Exit code 6 if the id is taken or retired, or the database is of another kind (nothing changed)."})
public final class AddShardCommand extends AdminCommand {

    @Option(names = "--id", required = true, paramLabel = "ID", description = "The new shard's id (never used before).")
    private String id;

    @Option(names = "--url", required = true, paramLabel = "JDBC_URL", description = "Its JDBC URL.")
    private String url;

    @Option(names = "--user", paramLabel = "USER",
            description = "The database user; default: ATOMICSHARDS_SHARD_<ID>_USER from the environment, else none.")
    private String user;

    @Option(names = "--pool-size", paramLabel = "N", description = "Its pool's maximum size; default: the factory's.")
    private Integer poolSize;

    public AddShardCommand(Map<String, String> environment) {
        super(environment);
    }

    @Override
    protected void checkOptions() {
        if (poolSize != null && poolSize < 1) {
            throw new CliException(ExitCodes.USAGE, "Option --pool-size is " + poolSize + "; it must be at least 1");
        }
    }

    @Override
    int run(ShardAdmin admin, Cluster cluster, PrintWriter out) {
        String variable = "ATOMICSHARDS_SHARD_" + SettingsFile.variablePart(id) + "_";
        String login = user != null ? user : environment().get(variable + "USER");
        NewShard shard = NewShard.of(id, url, login, environment().get(variable + "PASSWORD"));
        if (poolSize != null) {
            shard = shard.withPoolSize(poolSize);
        }
        ShardAdded added = admin.addShard(shard);
        Map<String, Long> copied = new TreeMap<>(added.referenceRowsCopied());
        if (json()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("shard", added.shard().name());
            json.put("url", Redaction.url(url));
            json.put("referenceDataSource", added.referenceDataSource() == null ? null : added.referenceDataSource().name());
            json.put("referenceRowsCopied", copied);
            List<Map<String, Object>> divergences = new ArrayList<>();
            for (ReferenceDataDivergence divergence : added.divergences()) {
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("entity", divergence.entity());
                Map<String, Long> rows = new LinkedHashMap<>();
                divergence.rowsPerShard().forEach((s, n) -> rows.put(s.name(), n));
                item.put("rowsPerShard", rows);
                divergences.add(item);
            }
            json.put("referenceDataDivergences", divergences);
            out.print(Json.write(json));
            return ExitCodes.OK;
        }
        out.printf("added shard %s (%s); it owns no virtual shard yet: move some to it (move, split, rebalance)%n",
                added.shard(), Redaction.url(url));
        if (!copied.isEmpty()) {
            out.printf("reference data copied from %s: %s%n", added.referenceDataSource(), String.join(", ",
                    copied.entrySet().stream().map(e -> StatusCommand.simpleName(e.getKey()) + " " + e.getValue()
                            + " rows").toList()));
        }
        added.divergences().forEach(divergence -> out.println("warning: " + divergence));
        return ExitCodes.OK;
    }
}
