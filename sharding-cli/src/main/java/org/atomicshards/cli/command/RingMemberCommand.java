package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.admin.ShardAdmin;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code add-ring-member} and {@code remove-ring-member}: a shard joins or leaves the consistent-hash ring of one unit,
 * and exactly the keys the new ring reassigns move, online ({@link ShardAdmin#addRingMember},
 * {@link ShardAdmin#removeRingMember}).
 */
public abstract class RingMemberCommand extends MovingCommand {

    @Option(names = "--unit", required = true, paramLabel = "ROOT",
            description = "The unit's root entity: its class name, with or without the package.")
    private String unit;

    @Option(names = "--shard", required = true, paramLabel = "SHARD", description = "The shard joining or leaving.")
    private String shard;

    RingMemberCommand(Map<String, String> environment) {
        super(environment);
    }

    abstract MoveReport change(ShardAdmin admin, Class<?> root, ShardId shard, MoveOptions options);

    /** What the change did, for its line: {@code joined} or {@code left}. */
    abstract String verb();

    @Override
    int move(ShardAdmin admin, MoveOptions options, Cluster cluster, PrintWriter out) {
        Class<?> root = root(cluster);
        MoveReport report = change(admin, root, ShardId.of(shard), options);
        if (json()) {
            return printed(report, out);
        }
        out.println(MoveReports.ringText("shard " + shard + " " + verb() + " the ring of " + root.getSimpleName(),
                report));
        return ExitCodes.OK;
    }

    /** The root class named by {@code --unit}. */
    private Class<?> root(Cluster cluster) {
        List<Class<?>> roots = cluster.units().stream().map(UnitRoutingImpl::root).toList();
        return roots.stream().filter(r -> r.getName().equals(unit) || r.getSimpleName().equals(unit)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No atomic unit has the root '" + unit + "'. Fix: "
                        + "--unit one of " + roots.stream().map(Class::getName).toList()));
    }

    /** {@code add-ring-member}. */
    @Command(name = "add-ring-member", mixinStandardHelpOptions = true,
            description = {"Add a shard to the consistent-hash ring of a unit (policy consistent_hash) and move onto it "
                    + "exactly the keys the new ring gives it, while the application keeps running: one batch per old "
                    + "member, each with a short write pause. Add the shard first (add-shard).",
                    "Exit code 6 if another operation changes this ring or moves into the same shard (nothing "
                            + "changed); 7 if the change stopped part way (run resume)."})
    public static final class Add extends RingMemberCommand {

        public Add(Map<String, String> environment) {
            super(environment);
        }

        @Override
        MoveReport change(ShardAdmin admin, Class<?> root, ShardId shard, MoveOptions options) {
            return admin.addRingMember(root, shard, options);
        }

        @Override
        String verb() {
            return "joined";
        }
    }

    /** {@code remove-ring-member}. */
    @Command(name = "remove-ring-member", mixinStandardHelpOptions = true,
            description = {"Remove a shard from the consistent-hash ring of a unit (policy consistent_hash) and move "
                    + "its keys to the members the ring without it gives them to, while the application keeps running: "
                    + "one batch per remaining member. The ring's last member cannot leave.",
                    "Exit code 6 if another operation changes this ring (nothing changed); 7 if the change stopped part "
                            + "way (run resume)."})
    public static final class Remove extends RingMemberCommand {

        public Remove(Map<String, String> environment) {
            super(environment);
        }

        @Override
        MoveReport change(ShardAdmin admin, Class<?> root, ShardId shard, MoveOptions options) {
            return admin.removeRingMember(root, shard, options);
        }

        @Override
        String verb() {
            return "left";
        }
    }
}
