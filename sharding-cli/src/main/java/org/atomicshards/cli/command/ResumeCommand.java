package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.admin.OperationStatus;
import org.atomicshards.hibernate.admin.ShardAdmin;
import picocli.CommandLine.Command;

/** {@code resume}: carries every interrupted operation that no running owner holds to completion. */
@Command(name = "resume", mixinStandardHelpOptions = true,
        description = {"Carry every unfinished resharding operation to completion, in the order they started, from "
                + "the state its journal records: those whose run stopped (it released them) and those whose "
                + "owner's lease has lapsed (the instance or tool running it died) are taken over.",
                "Exit code 0 when nothing is left unfinished; 6 when operations are still held by a live owner (their "
                        + "lease is listed: run resume again after it); 7 if a resumed move stopped again."})
public final class ResumeCommand extends MovingCommand {

    public ResumeCommand(Map<String, String> environment) {
        super(environment);
    }

    @Override
    int move(ShardAdmin admin, MoveOptions options, Cluster cluster, PrintWriter out) {
        List<MoveReport> finished = admin.resume(options);
        List<OperationStatus> held = admin.operations();
        if (json()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("finished", MoveReports.json(finished));
            json.put("stillHeld", held.stream().map(OperationsCommand::json).toList());
            out.print(Json.write(json));
        } else {
            if (finished.isEmpty() && held.isEmpty()) {
                out.println("nothing to resume: no operation in progress");
            }
            finished.forEach(report -> out.println("resumed and finished: " + MoveReports.text(report)));
            held.forEach(op -> out.printf("still held: %s %s of virtual shards %s to %s, by %s until %s; run resume "
                    + "again after that%n", op.kind(), op.id(), op.virtualShards(), op.target(), op.owner(), op.leaseUntil()));
        }
        return held.isEmpty() ? ExitCodes.OK : ExitCodes.CONFLICT;
    }
}
