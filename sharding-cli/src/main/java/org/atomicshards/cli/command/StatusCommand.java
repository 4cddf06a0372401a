package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.cli.internal.TextTable;
import org.atomicshards.hibernate.ShardSchemaVersion;
import picocli.CommandLine.Command;

/** {@code status}: the shards, the map, rows per shard and entity, the skew of each unit, operations in progress. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Show the shards (id, status in the catalog, URL without credentials, virtual shards), the "
                + "map version, units and rows per shard for every entity, the skew of each atomic unit (max/min and "
                + "coefficient of variation over the shards) and the resharding operations in progress.",
                "Reads only. A shard that cannot be read is listed with its error; the exit code is then 4."})
public final class StatusCommand extends ClusterCommand {

    public StatusCommand(Map<String, String> environment) {
        super(environment);
    }

    @Override
    protected Cluster.Access access() {
        return Cluster.Access.READ;
    }

    @Override
    protected int run(Cluster cluster, PrintWriter out) {
        StatusReport report = new StatusCollector(cluster).collect();
        if (json()) {
            out.print(Json.write(report.toJson()));
        } else {
            print(report, out);
        }
        return report.shards().stream().anyMatch(shard -> shard.error() != null) ? ExitCodes.UNAVAILABLE : ExitCodes.OK;
    }

    private static void print(StatusReport report, PrintWriter out) {
        out.printf("map version %d, %d virtual shards, catalog %s%n%n", report.mapVersion(), report.virtualShards(),
                report.catalog());
        List<String> header = new ArrayList<>(List.of("shard", "status", "virtual shards"));
        report.entities().forEach(entity -> header.add(simpleName(entity)));
        header.add("url");
        TextTable shards = new TextTable(header);
        for (StatusReport.ShardLine shard : report.shards()) {
            List<Object> row = new ArrayList<>();
            row.add(shard.id());
            row.add(shard.error() != null ? "UNREACHABLE" : shard.status() == null ? "UNREGISTERED" : shard.status());
            row.add(shard.virtualShards());
            report.entities().forEach(entity -> row.add(shard.rows().get(entity)));
            row.add(shard.url());
            shards.row(row);
        }
        out.print(shards);
        for (StatusReport.ShardLine shard : report.shards()) {
            if (shard.error() != null) {
                out.printf("%s: %s%n", shard.id(), shard.error());
            }
        }
        report.replicas().forEach(replica -> out.printf("replica %s/%s (%s): %s%s%n", replica.shard(), replica.name(),
                replica.url(), replica.state(), replica.lagMillis() >= 0 ? ", lag " + replica.lagMillis() + " ms"
                        : replica.detail().isEmpty() ? "" : ": " + replica.detail()));
        if (!report.schemaVersions().isEmpty()) {
            out.printf("schema versions%s: %s%n", ShardSchemaVersion.differ(report.schemaVersions())
                    ? " DIFFER (run schema migrate)" : "", String.join(", ", report.schemaVersions().stream()
                    .map(v -> v.shard() + " " + (v.error() != null ? "unreadable (" + v.error() + ")"
                            : v.version() == null ? "none" : v.version())).toList()));
        }
        out.println();
        TextTable units = new TextTable("unit", "policy", "units max/min", "units cv", "rows max/min", "rows cv");
        for (StatusReport.UnitSpread unit : report.units()) {
            units.row(simpleName(unit.root()), unit.policy(),
                    unit.units() == null ? null : unit.units().ratioText(), unit.units() == null ? null : unit.units().cvText(),
                    unit.rows() == null ? null : unit.rows().ratioText(), unit.rows() == null ? null : unit.rows().cvText());
        }
        out.print(units);
        if (!report.referenceData().isEmpty()) {
            out.printf("reference data (on every shard): %s%n",
                    String.join(", ", report.referenceData().stream().map(StatusCommand::simpleName).toList()));
        }
        out.println();
        if (report.operations() == null) {
            out.println("operations in progress: none (the catalog has no " + StatusCollector.MOVE_JOURNAL + " journal)");
        } else if (report.operations().isEmpty()) {
            out.println("operations in progress: none");
        } else {
            out.println("operations in progress:");
            report.operations().forEach(operation -> out.println("  " + operation));
        }
    }

    static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1).replace('$', '.');
    }
}
