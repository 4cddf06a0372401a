package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.CliException;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Errors;
import org.atomicshards.hibernate.admin.MoveFailedException;
import org.atomicshards.hibernate.admin.ShardAdmin;

/**
 * A command that changes the topology through the runtime's {@link ShardAdmin}, exactly as an application instance
 * would: boots with every shard reachable and the catalog prepared. The runtime's refusals of bad input (an unknown
 * shard or virtual shard) become usage errors; a move that stopped becomes exit code
 * {@link ExitCodes#MOVE_FAILED} with the way to resume it.
 */
public abstract class AdminCommand extends ClusterCommand {

    AdminCommand(Map<String, String> environment) {
        super(environment);
    }

    /** Changes need every shard reachable and the catalog prepared; a command that only reads may say otherwise. */
    @Override
    protected Cluster.Access access() {
        return Cluster.Access.ADMIN;
    }

    /** Runs the operation on {@code admin}; returns the exit code. */
    abstract int run(ShardAdmin admin, Cluster cluster, PrintWriter out);

    @Override
    protected final int run(Cluster cluster, PrintWriter out) {
        try {
            return run(cluster.shards().admin(), cluster, out);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCodes.USAGE, e.getMessage(), e);
        } catch (MoveFailedException e) {
            throw new CliException(ExitCodes.MOVE_FAILED, Errors.message(e) + ". With this tool: atomicshards resume "
                    + "(once this run's lease has lapsed, --lease-seconds)", e);
        }
    }
}
