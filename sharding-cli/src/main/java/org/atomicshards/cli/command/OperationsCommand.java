package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.cli.internal.TextTable;
import org.atomicshards.hibernate.admin.OperationStatus;
import org.atomicshards.hibernate.admin.ShardAdmin;
import picocli.CommandLine.Command;

/** {@code operations}: the unfinished resharding operations recorded in the catalog. */
@Command(name = "operations", mixinStandardHelpOptions = true,
        description = {"List the unfinished resharding operations recorded in the catalog's journal: kind, target, "
                + "virtual shards, the state of the batch in progress, the instance running it and until when it "
                + "holds it, the last error. An operation whose lease has lapsed is taken over by resume."})
public final class OperationsCommand extends AdminCommand {

    public OperationsCommand(Map<String, String> environment) {
        super(environment);
    }

    /** Reads only: works while a shard is down, which is when an operator looks. */
    @Override
    protected Cluster.Access access() {
        return Cluster.Access.READ;
    }

    @Override
    int run(ShardAdmin admin, Cluster cluster, PrintWriter out) {
        List<OperationStatus> operations = admin.operations();
        if (json()) {
            out.print(Json.write(operations.stream().map(OperationsCommand::json).toList()));
            return ExitCodes.OK;
        }
        if (operations.isEmpty()) {
            out.println("no operation in progress");
            return ExitCodes.OK;
        }
        TextTable table = new TextTable("operation", "kind", "target", "virtual shards", "state", "batch", "owner",
                "lease until", "error");
        operations.forEach(op -> table.row(op.id(), op.kind(), op.target().name(), op.virtualShards(), op.state(),
                op.batch() + 1, op.owner(), op.leaseUntil(), op.error()));
        out.print(table);
        return ExitCodes.OK;
    }

    static Map<String, Object> json(OperationStatus operation) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", operation.id());
        json.put("kind", operation.kind());
        json.put("target", operation.target().name());
        json.put("virtualShards", operation.virtualShards());
        json.put("state", operation.state());
        json.put("batch", operation.batch());
        json.put("owner", operation.owner());
        json.put("leaseUntil", operation.leaseUntil() == null ? null : operation.leaseUntil().toString());
        json.put("error", operation.error());
        return json;
    }
}
