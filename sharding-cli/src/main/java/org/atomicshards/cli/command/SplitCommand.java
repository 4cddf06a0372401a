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

/** {@code split}: the upper half of a shard's virtual shards to another shard. */
@Command(name = "split", mixinStandardHelpOptions = true,
        description = {"Move the upper half of a shard's virtual shards (and their units) to another shard, online. "
                + "The source must own at least 2 virtual shards; add the new shard first (add-shard).",
                "Exit code 6 on a conflicting operation (nothing changed); 7 if the move stopped part way (run resume)."})
public final class SplitCommand extends MovingCommand {

    @Option(names = "--from", required = true, paramLabel = "SHARD", description = "The shard to split.")
    private String source;

    @Option(names = "--to", required = true, paramLabel = "SHARD", description = "The shard that takes the upper half.")
    private String target;

    public SplitCommand(Map<String, String> environment) {
        super(environment);
    }

    @Override
    int move(ShardAdmin admin, MoveOptions options, Cluster cluster, PrintWriter out) {
        MoveReport report = admin.split(ShardId.of(source), ShardId.of(target), options);
        return printed(report, out);
    }
}
