package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.Map;

import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.admin.ShardAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code merge}: every virtual shard of one shard into another. */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = {"Move every virtual shard of a shard (and its units) into another shard, online; the first "
                + "then owns nothing.",
                "Exit code 6 on a conflicting operation (nothing changed); 7 if the move stopped part way (run resume)."})
public final class MergeCommand extends MovingCommand {

    @Option(names = "--from", required = true, paramLabel = "SHARD", description = "The shard to empty.")
    private String from;

    @Option(names = "--into", required = true, paramLabel = "SHARD", description = "The shard that takes everything.")
    private String into;

    public MergeCommand(Map<String, String> environment) {
        super(environment);
    }

    @Override
    int move(ShardAdmin admin, MoveOptions options, Cluster cluster, PrintWriter out) {
        MoveReport report = admin.merge(ShardId.of(from), ShardId.of(into), options);
        return printed(report, out);
    }
}
