package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.Map;
import java.util.Set;

import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.VirtualShardList;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.admin.ShardAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code move}: virtual shards and every unit on them to another shard, online. */
@Command(name = "move", mixinStandardHelpOptions = true,
        description = {"Move virtual shards (whoever owns each now) and every unit on them to a shard, while the "
                + "application keeps running: copy, catch up, a short write pause per batch, switch the map.",
                "Exit code 6 if another operation holds one of them or moves into the same shard (nothing changed); "
                        + "7 if the move stopped part way (run resume)."})
public final class MoveCommand extends MovingCommand {

    @Option(names = "--virtual-shards", required = true, paramLabel = "LIST", converter = VirtualShardList.class,
            description = "The virtual shards to move: numbers and ranges, e.g. 0-3,8.")
    private Set<Integer> virtualShards;

    @Option(names = "--to", required = true, paramLabel = "SHARD", description = "The shard that will own them.")
    private String target;

    public MoveCommand(Map<String, String> environment) {
        super(environment);
    }

    @Override
    int move(ShardAdmin admin, MoveOptions options, Cluster cluster, PrintWriter out) {
        MoveReport report = admin.move(virtualShards, ShardId.of(target), options);
        return printed(report, out);
    }
}
