package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.admin.ShardAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code drain}: every virtual shard of a shard to the other shards, evenly. */
@Command(name = "drain", mixinStandardHelpOptions = true,
        description = {"Move every virtual shard of a shard (and its units) to the other shards, each to the one "
                + "owning the fewest, online: one move per receiving shard. The drained shard then owns nothing.",
                "Exit code 6 on a conflicting operation (nothing changed by it); 7 if a move stopped part way (run "
                        + "resume; the moves before it are done)."})
public final class DrainCommand extends MovingCommand {

    @Option(names = "--shard", required = true, paramLabel = "SHARD", description = "The shard to drain.")
    private String shard;

    public DrainCommand(Map<String, String> environment) {
        super(environment);
    }

    @Override
    int move(ShardAdmin admin, MoveOptions options, Cluster cluster, PrintWriter out) {
        List<MoveReport> reports = admin.drain(ShardId.of(shard), options);
        if (json()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("drained", shard);
            json.put("moves", MoveReports.json(reports));
            out.print(Json.write(json));
        } else {
            out.printf("drained %s in %d move(s)%n", shard, reports.size());
            reports.forEach(report -> out.println("  " + MoveReports.text(report)));
        }
        return ExitCodes.OK;
    }
}
