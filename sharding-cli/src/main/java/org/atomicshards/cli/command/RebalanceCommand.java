package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.cli.internal.TextTable;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.RebalancePlan;
import org.atomicshards.hibernate.admin.ShardAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rebalance}: even out the virtual shards over the shards; {@code --dry-run} prints the plan only. */
@Command(name = "rebalance", mixinStandardHelpOptions = true,
        description = {"Plan the moves that even out the virtual shards over the shards (at most one apart) and run "
                + "them online, one move per pair of shards. With --dry-run, print the plan and change nothing.",
                "Evens out virtual shards, not traffic: see status and the hot-spot report for hot virtual shards."})
public final class RebalanceCommand extends MovingCommand {

    @Option(names = "--dry-run", description = "Print the plan (virtual shards per shard before and after, the moves) "
            + "and change nothing.")
    private boolean dryRun;

    public RebalanceCommand(Map<String, String> environment) {
        super(environment);
    }

    @Override
    int move(ShardAdmin admin, MoveOptions options, Cluster cluster, PrintWriter out) {
        RebalancePlan plan = admin.rebalance(dryRun, options);
        if (json()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("dryRun", dryRun);
            json.put("before", counts(plan.before()));
            json.put("after", counts(plan.after()));
            List<Map<String, Object>> moves = new ArrayList<>();
            for (RebalancePlan.PlannedMove move : plan.moves()) {
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("source", move.source().name());
                item.put("target", move.target().name());
                item.put("virtualShards", new ArrayList<>(new TreeSet<>(move.virtualShards())));
                moves.add(item);
            }
            json.put("moves", moves);
            out.print(Json.write(json));
            return ExitCodes.OK;
        }
        out.println(dryRun ? "rebalance plan (dry run, nothing changed):" : "rebalanced:");
        TextTable shards = new TextTable("shard", "virtual shards before", "after");
        plan.before().forEach((shard, before) -> shards.row(shard.name(), before, plan.after().get(shard)));
        out.print(shards);
        if (plan.moves().isEmpty()) {
            out.println("nothing to move: the shards are even");
        }
        for (RebalancePlan.PlannedMove move : plan.moves()) {
            out.printf("%s %d virtual shards %s -> %s: %s%n", dryRun ? "would move" : "moved",
                    move.virtualShards().size(), move.source(), move.target(), MoveReports.ranges(move.virtualShards()));
        }
        return ExitCodes.OK;
    }

    private static Map<String, Integer> counts(Map<ShardId, Integer> counts) {
        Map<String, Integer> json = new LinkedHashMap<>();
        counts.forEach((shard, count) -> json.put(shard.name(), count));
        return json;
    }
}
