package org.atomicshards.cli;

import org.atomicshards.cli.command.AdviseCommand;
import org.atomicshards.cli.command.SchemaCommand;
import org.atomicshards.cli.command.StatusCommand;
import org.atomicshards.cli.command.VerifyCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The top command. Each operation is one subcommand class: a resharding operation ({@code add-shard},
 * {@code move}, ...) is added by writing its class and listing it here.
 */
@Command(name = "atomicshards", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Operate the shards of an Atomic Shards application: their status, a consistency check, "
                + "the schema on every shard, and advice on a shard key before sharding.",
        subcommands = {StatusCommand.class, VerifyCommand.class, SchemaCommand.class, AdviseCommand.class})
public final class AtomicShardsCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing command: use one of " + spec.subcommands().keySet());
    }
}
