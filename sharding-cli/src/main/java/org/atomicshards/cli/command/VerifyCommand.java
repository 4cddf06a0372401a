package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.cli.internal.TextTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code verify}: every unit on the shard the map names, no orphans, equal reference data; exit code 1 when it found
 * a problem, 4 when all it found is shards it could not read (as {@code status}).
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Check that every atomic unit (its root and all member rows) is on the shard the map names "
                + "and nowhere else, that no member rows are left without their root, and that every reference-data "
                + "table holds the same rows on every shard.",
                "Reads only. Exit code 1 and a list when anything is off; 4 when the only problems are shards that "
                        + "could not be read (listed as UNREADABLE)."})
public final class VerifyCommand extends ClusterCommand {

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "List at most N problems (all are counted). Default: ${DEFAULT-VALUE}.")
    private int limit;

    public VerifyCommand(Map<String, String> environment) {
        super(environment);
    }

    @Override
    protected Cluster.Access access() {
        return Cluster.Access.READ;
    }

    @Override
    protected int run(Cluster cluster, PrintWriter out) {
        Verifier.Result result = new Verifier(cluster).verify();
        List<Problem> listed = result.problems().stream().limit(Math.max(0, limit)).toList();
        if (json()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("ok", result.problems().isEmpty());
            json.put("shards", result.shards());
            json.put("units", result.units());
            json.put("entityTypes", result.entityTypes());
            json.put("referenceDataTypes", result.referenceDataTypes());
            json.put("problemCount", result.problems().size());
            json.put("problems", listed.stream().map(Problem::toJson).toList());
            out.print(Json.write(json));
        } else {
            out.printf("checked %d units (%d entity types) and %d reference-data types on %d shards: %s%n",
                    result.units(), result.entityTypes(), result.referenceDataTypes(), result.shards(),
                    result.problems().isEmpty() ? "all consistent" : result.problems().size() + " problem(s)");
            if (!listed.isEmpty()) {
                TextTable table = new TextTable("problem", "entity", "key", "shard", "expected", "detail");
                listed.forEach(p -> table.row(p.kind().name(), p.entity() == null ? null : StatusCommand.simpleName(p.entity()),
                        p.key(), p.shard(), p.expected(), p.detail()));
                out.println();
                out.print(table);
                if (listed.size() < result.problems().size()) {
                    out.printf("... and %d more (--limit)%n", result.problems().size() - listed.size());
                }
            }
        }
        return exitCode(result.problems());
    }

    /** OK, CHECK_FAILED if any problem is in the data, UNAVAILABLE if every problem is a shard that was not read. */
    static int exitCode(List<Problem> problems) {
        if (problems.isEmpty()) {
            return ExitCodes.OK;
        }
        boolean onlyUnreadable = problems.stream().allMatch(p -> p.kind() == Problem.Kind.UNREADABLE);
        return onlyUnreadable ? ExitCodes.UNAVAILABLE : ExitCodes.CHECK_FAILED;
    }
}
