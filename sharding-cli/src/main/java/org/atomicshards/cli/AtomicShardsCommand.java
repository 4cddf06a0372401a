package org.atomicshards.cli;

import org.atomicshards.cli.command.AdoptCommand;
import org.atomicshards.cli.command.AdviseCommand;
import org.atomicshards.cli.command.AddShardCommand;
import org.atomicshards.cli.command.DrainCommand;
import org.atomicshards.cli.command.MergeCommand;
import org.atomicshards.cli.command.MigrateCommand;
import org.atomicshards.cli.command.MoveCommand;
import org.atomicshards.cli.command.OperationsCommand;
import org.atomicshards.cli.command.RebalanceCommand;
import org.atomicshards.cli.command.ResumeCommand;
import org.atomicshards.cli.command.RingMemberCommand;
import org.atomicshards.cli.command.SplitCommand;
import org.atomicshards.cli.command.IndexCommand;
import org.atomicshards.cli.command.SchemaCommand;
import org.atomicshards.cli.command.StatusCommand;
import org.atomicshards.cli.command.VerifyCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The top command. Each operation is one subcommand class, listed here; the resharding commands ({@code add-shard},
 * {@code move}, {@code split}, ...) work through the runtime's {@code ShardAdmin}.
 */
@Command(name = "atomicshards", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Operate the shards of an Atomic Shards application: their status, a consistency check, "
                + "the schema on every shard, indexes (build, verify), advice on a shard key before sharding, the "
                + "schema the model still needs (migrate check), adopting the one database as the first shard (adopt), "
                + "and online resharding (add-shard, move, split, merge, drain, rebalance, add-ring-member, "
                + "remove-ring-member, resume, operations).",
        subcommands = {StatusCommand.class, VerifyCommand.class, SchemaCommand.class, IndexCommand.class,
                AdviseCommand.class, MigrateCommand.class, AdoptCommand.class, AddShardCommand.class, MoveCommand.class,
                SplitCommand.class, MergeCommand.class, DrainCommand.class, RebalanceCommand.class,
                RingMemberCommand.Add.class, RingMemberCommand.Remove.class,
                ResumeCommand.class, OperationsCommand.class})
public final class AtomicShardsCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing command: use one of " + spec.subcommands().keySet());
    }
}
