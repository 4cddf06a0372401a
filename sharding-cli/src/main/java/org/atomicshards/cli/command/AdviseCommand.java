package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.CliException;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.EntityModel;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.cli.internal.ModelOptions;
import org.atomicshards.cli.internal.OutputOptions;
import org.atomicshards.cli.internal.TextTable;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.Redaction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code advise}: how the rows of an unsharded database would spread over N shards under each policy. */
@Command(name = "advise", mixinStandardHelpOptions = true,
        description = {"Before sharding: read your existing single database through your annotated model and report, "
                + "for each atomic unit and candidate key, the number of distinct keys, the largest unit's share of "
                + "the rows, and the predicted spread over N shards under hash, range (equal-width ranges; a monotonic "
                + "key sends every new unit to the last shard) and consistent hash, computed with the runtime's own "
                + "hash and ring; and which tables are reference data, copied to every shard.",
                "Reads only; nothing is written to the database."})
public final class AdviseCommand implements Callable<Integer> {

    static final String PASSWORD_VARIABLE = "ATOMICSHARDS_ADVISE_PASSWORD";

    @Option(names = "--url", required = true, paramLabel = "JDBC_URL",
            description = "The existing, unsharded database (H2, PostgreSQL, MariaDB/MySQL).")
    private String url;

    @Option(names = "--user", paramLabel = "USER", description = "Its user.")
    private String user;

    @Option(names = "--password-env", paramLabel = "VARIABLE", defaultValue = PASSWORD_VARIABLE,
            description = "Environment variable holding its password (never an option, so it stays out of shell "
                    + "history and process lists). Default: ${DEFAULT-VALUE}.")
    private String passwordVariable;

    @Option(names = {"-n", "--shards"}, split = ",", paramLabel = "N", defaultValue = "2,4,8",
            description = "Shard counts to predict for. Default: ${DEFAULT-VALUE}.")
    private List<Integer> shardCounts = new ArrayList<>();

    @Option(names = "--virtual-shards", paramLabel = "V", defaultValue = "1024",
            description = "Virtual shards of the hash policy. Default: ${DEFAULT-VALUE}.")
    private int virtualShards;

    @Option(names = "--ring-nodes", paramLabel = "K", defaultValue = "150",
            description = "Ring nodes per shard of the consistent-hash policy. Default: ${DEFAULT-VALUE}.")
    private int ringNodes;

    @Option(names = "--candidate", paramLabel = "ROOT.PATH",
            description = "Another candidate key to compare with the declared one: an attribute path on a unit's root "
                    + "(e.g. User.country.code); each value becomes one unit holding the rows of all its roots. Repeatable.")
    private List<String> candidates = new ArrayList<>();

    @Option(names = "--reference-max-rows", paramLabel = "ROWS", defaultValue = "100000",
            description = "Reference-data tables above this many rows are flagged as too large to copy to every "
                    + "shard. Default: ${DEFAULT-VALUE}.")
    private long referenceMaxRows;

    @Mixin
    private ModelOptions model = new ModelOptions();

    @Mixin
    private OutputOptions output = new OutputOptions();

    @Spec
    private CommandSpec spec;

    private final Map<String, String> environment;

    public AdviseCommand(Map<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public Integer call() {
        checkOptions();
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put(ShardingSettings.SHARDS, "source");
        settings.put(ShardingSettings.SHARD_PREFIX + "source.url", url);
        if (user != null) {
            settings.put(ShardingSettings.SHARD_PREFIX + "source.user", user);
        }
        String password = environment.get(passwordVariable);
        if (password != null) {
            settings.put(ShardingSettings.SHARD_PREFIX + "source.password", password);
        }
        // a throwaway directory: the analysed database gets no catalog tables
        settings.put(ShardingSettings.CATALOG_URL, "jdbc:h2:mem:atomicshards-advise-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        Advice advice;
        try (Cluster cluster = Cluster.open(settings, EntityModel.load(model.paths()), Cluster.Access.ADMIN)) {
            advice = new Advisor(cluster).advise(Redaction.url(url), shardCounts, virtualShards, ringNodes, candidates,
                    referenceMaxRows);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (output.json()) {
            out.print(Json.write(advice.toJson()));
        } else {
            print(advice, out);
        }
        out.flush();
        return ExitCodes.OK;
    }

    private void checkOptions() {
        if (shardCounts.isEmpty() || shardCounts.stream().anyMatch(n -> n < 1 || n > virtualShards)) {
            throw new CliException(ExitCodes.USAGE, "Option --shards has " + shardCounts + ". Fix: give shard counts "
                    + "from 1 to the virtual shards (" + virtualShards + "), e.g. --shards 2,4,8");
        }
        if (virtualShards < 1 || ringNodes < 1) {
            throw new CliException(ExitCodes.USAGE, "Options --virtual-shards and --ring-nodes must be at least 1");
        }
    }

    private static void print(Advice advice, PrintWriter out) {
        out.printf("advice for %s (hash over %d virtual shards, consistent hash with %d ring nodes per shard)%n",
                advice.database(), advice.virtualShards(), advice.ringNodes());
        for (Advice.Candidate c : advice.candidates()) {
            out.println();
            out.printf(Locale.ROOT, "unit %s, key %s%s: %,d distinct keys, %,d rows; largest unit %s with %,d rows (%.1f%%)%n",
                    StatusCommand.simpleName(c.unit()), c.key(), c.declared() ? " (declared)" : " (candidate)",
                    c.distinctKeys(), c.rows(), c.largestKey(), c.largestRows(), 100 * c.largestShare());
            if (c.unplacedRows() > 0) {
                out.printf(Locale.ROOT, "  %,d rows have no value for this key (or no root) and are not counted%n", c.unplacedRows());
            }
            TextTable table = new TextTable("shards", "policy", "rows max/min", "rows cv", "fullest shard", "rows per shard");
            List<String> notes = new ArrayList<>();
            for (Prediction p : c.predictions()) {
                if (p.rowsPerShard() == null) {
                    table.row(p.shards(), p.policy(), null, null, null, p.note());
                    continue;
                }
                table.row(p.shards(), p.policy(), p.skew().ratioText(), p.skew().cvText(),
                        String.format(Locale.ROOT, "%.1f%%", 100 * p.largestShardShare()), perShard(p.rowsPerShard()));
                if (p.note() != null && !notes.contains(p.note())) {
                    notes.add(p.note());
                }
            }
            out.print(table);
            notes.forEach(note -> out.println("  range: " + note));
            c.predictions().stream().map(Prediction::shards).distinct().map(c::floorWarning)
                    .filter(w -> w != null).forEach(w -> out.println("  warning: " + w));
        }
        out.println();
        if (advice.tables().isEmpty()) {
            out.println("reference data: none in the model");
        } else {
            TextTable tables = new TextTable("reference data", "table", "rows", "verdict");
            advice.tables().forEach(t -> tables.row(StatusCommand.simpleName(t.entity()), t.table(), t.rows(), t.verdict()));
            out.print(tables);
        }
    }

    private static String perShard(long[] rows) {
        if (rows.length > 8) {
            return rows.length + " shards";
        }
        List<String> cells = new ArrayList<>();
        for (long r : rows) {
            cells.add(Long.toString(r));
        }
        return String.join(" ", cells);
    }
}
