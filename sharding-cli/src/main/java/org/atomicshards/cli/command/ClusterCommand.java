package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.EntityModel;
import org.atomicshards.cli.internal.OutputOptions;
import org.atomicshards.cli.internal.SettingsFile;
import org.atomicshards.cli.internal.ShardsOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command on the application's shards: reads the settings file and the entity model, boots the shards as the
 * application does ({@link Cluster}), runs, and closes everything. A new operation (a resharding command) extends
 * this class and implements {@link #run(Cluster, PrintWriter)}.
 */
public abstract class ClusterCommand implements Callable<Integer> {

    @Mixin
    private ShardsOptions shardsOptions = new ShardsOptions();

    @Mixin
    private OutputOptions output = new OutputOptions();

    @Spec
    private CommandSpec spec;

    private final Map<String, String> environment;

    protected ClusterCommand(Map<String, String> environment) {
        this.environment = environment;
    }

    /** Read-only commands boot without touching the catalog's schema and with shards allowed to be down. */
    protected abstract Cluster.Access access();

    /** Runs on the booted shards, printing to {@code out}; returns the exit code. */
    protected abstract int run(Cluster cluster, PrintWriter out);

    /** Checks the options before anything is read or booted; throws a {@code CliException} naming the fix. */
    protected void checkOptions() {
    }

    @Override
    public final Integer call() {
        checkOptions();
        Map<String, Object> settings = SettingsFile.read(shardsOptions.config(), environment);
        EntityModel model = EntityModel.load(shardsOptions.modelPaths());
        try (Cluster cluster = Cluster.open(settings, model, access())) {
            PrintWriter out = spec.commandLine().getOut();
            int exitCode = run(cluster, out);
            out.flush();
            return exitCode;
        }
    }

    /** The process environment given to the tool (secrets are read from it). */
    protected Map<String, String> environment() {
        return environment;
    }

    protected boolean json() {
        return output.json();
    }

    /** Where progress and warnings go, so that the result on {@code out} stays clean for scripts. */
    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
