package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.cli.internal.MoveSettings;
import org.atomicshards.cli.internal.ProgressDisplay;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.admin.ShardAdmin;
import picocli.CommandLine.Mixin;

/** An {@link AdminCommand} that moves virtual shards: the move options, and progress on stderr while it runs. */
public abstract class MovingCommand extends AdminCommand {

    @Mixin
    private MoveSettings moveSettings = new MoveSettings();

    MovingCommand(Map<String, String> environment) {
        super(environment);
    }

    /** Runs the moves with {@code options} (their listener draws the progress); returns the exit code. */
    abstract int move(ShardAdmin admin, MoveOptions options, Cluster cluster, PrintWriter out);

    /** Prints the report of one move, as JSON or as a line; returns {@link ExitCodes#OK}. */
    int printed(MoveReport report, PrintWriter out) {
        out.print(json() ? Json.write(MoveReports.json(report)) : MoveReports.text(report) + System.lineSeparator());
        return ExitCodes.OK;
    }

    @Override
    protected void checkOptions() {
        moveSettings.options(null);
    }

    @Override
    final int run(ShardAdmin admin, Cluster cluster, PrintWriter out) {
        MoveOptions checked = moveSettings.options(null);
        // the result is printed once the progress display has ended, so that a bar on the terminal does not cut it
        StringWriter result = new StringWriter();
        int exitCode;
        try (ProgressDisplay progress = ProgressDisplay.open(err(), json())) {
            exitCode = move(admin, checked.listener(progress), cluster, new PrintWriter(result));
            progress.finished();
        }
        out.print(result);
        return exitCode;
    }
}
