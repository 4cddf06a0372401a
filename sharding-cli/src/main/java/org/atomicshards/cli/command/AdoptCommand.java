package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.CliException;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.AdoptionRefusedException;
import org.atomicshards.hibernate.admin.AdoptionReport;
import org.atomicshards.hibernate.admin.ShardAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code adopt}: the database that held every row before sharding becomes the first shard, in place
 * ({@link ShardAdmin#adopt}).
 */
@Command(name = "adopt", mixinStandardHelpOptions = true,
        description = {"Adopt in place the database that holds every row of the application as the first shard: it "
                + "owns every virtual shard, nothing is copied. Checks that every key column exists and holds a key in "
                + "every row, that no unit's policy records placements, and that stored ids cannot collide with the "
                + "library's; then raises the library's id sequences above the largest stored ids, creates the "
                + "ownership fence's tables (as_*) on the database and logs the adoption in the catalog. The settings "
                + "file lists that database as the only shard, on a new catalog. Run it with the old application "
                + "stopped, then start the application on the library; add-shard and split move units out online.",
                "Exit code 1 if a check failed (every problem is listed; nothing changed); 6 if the shard does not own "
                        + "every virtual shard (nothing changed)."})
public final class AdoptCommand extends AdminCommand {

    @Option(names = "--shard", paramLabel = "SHARD",
            description = "The shard to adopt; default: the only shard listed in atomicshards.shards.")
    private String shard;

    @Option(names = "--dry-run", description = "Check and report only; change nothing (safe while the old application "
            + "runs).")
    private boolean dryRun;

    public AdoptCommand(Map<String, String> environment) {
        super(environment);
    }

    @Override
    int run(ShardAdmin admin, Cluster cluster, PrintWriter out) {
        ShardId id = shard != null ? ShardId.of(shard) : onlyShard(cluster.runtime().config().topology().configuredShardIds());
        AdoptionReport report;
        try {
            report = admin.adopt(id, dryRun);
        } catch (AdoptionRefusedException e) {
            report = e.report();
        }
        if (json()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("shard", report.shard().name());
            json.put("dryRun", dryRun);
            json.put("applied", report.applied());
            json.put("virtualShards", report.virtualShards());
            json.put("mapVersion", report.mapVersion());
            json.put("checkedKeyColumns", report.checkedKeyColumns());
            json.put("largestIds", report.largestIds());
            json.put("nextIds", report.nextIds());
            json.put("problems", report.problems());
            out.print(Json.write(json));
        } else {
            print(report, out);
        }
        return report.adoptable() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }

    private void print(AdoptionReport report, PrintWriter out) {
        if (!report.adoptable()) {
            out.printf("cannot adopt shard %s; nothing was changed. %d problem(s):%n", report.shard(),
                    report.problems().size());
            report.problems().forEach(problem -> out.println("  - " + problem));
            return;
        }
        out.printf(report.applied()
                ? "adopted shard %s in place: it owns all %d virtual shards (map version %d); nothing was copied%n"
                : "shard %s can be adopted: it would own all %d virtual shards (map version %d); dry run, nothing "
                        + "was changed%n", report.shard(), report.virtualShards(), report.mapVersion());
        out.printf("key columns checked, a key in every row: %s%n", String.join(", ", report.checkedKeyColumns()));
        report.nextIds().forEach((entity, next) -> out.printf("ids of %s: largest stored %s, the library's start at %d%n",
                StatusCommand.simpleName(entity), report.largestIds().containsKey(entity)
                        ? report.largestIds().get(entity).toString() : "none", next));
        if (report.applied()) {
            out.println("next: start the application on the library, then add-shard and split to move units out");
        }
    }

    private static ShardId onlyShard(List<ShardId> shards) {
        if (shards.size() != 1) {
            throw new CliException(ExitCodes.USAGE, "The settings file lists the shards " + shards + " in atomicshards.shards; "
                    + "adopt takes one. Fix: name it with --shard, or list only the database to adopt in atomicshards.shards");
        }
        return shards.get(0);
    }
}
