package org.atomicshards.cli.command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.CliException;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Errors;
import org.atomicshards.cli.internal.Json;
import org.atomicshards.hibernate.ShardSchemaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code schema create|update|validate}: Hibernate's schema tooling on every shard, as the runtime runs it;
 * {@code schema migrate}: the application's Flyway or Liquibase migrations on every shard.
 */
@Command(name = "schema", mixinStandardHelpOptions = true,
        description = "Create, update or validate the mapped tables on every shard (reference data included), or run "
                + "the application's Flyway or Liquibase migrations on every shard (migrate). The catalog's own tables "
                + "are created or upgraded as atomicshards.catalog.schema says.",
        subcommands = {SchemaCommand.Create.class, SchemaCommand.Update.class, SchemaCommand.Validate.class,
                SchemaCommand.Migrate.class})
public final class SchemaCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing action: use one of " + spec.subcommands().keySet());
    }

    /** The shared part: boot with every shard reachable, run the action, report the shards done. */
    abstract static class Action extends ClusterCommand {

        Action(Map<String, String> environment) {
            super(environment);
        }

        @Override
        protected Cluster.Access access() {
            return Cluster.Access.ADMIN;
        }

        abstract String name();

        abstract void apply(Cluster cluster);

        /** Each shard's schema version after the action, for the actions that produce one. */
        Map<org.atomicshards.hibernate.ShardId, String> versions() {
            return Map.of();
        }

        @Override
        protected int run(Cluster cluster, PrintWriter out) {
            int exitCode = ExitCodes.OK;
            String error = null;
            try {
                apply(cluster);
            } catch (ShardSchemaException e) {
                if (!(this instanceof Validate)) {
                    throw e;
                }
                exitCode = ExitCodes.CHECK_FAILED;
                error = Errors.message(e);
            }
            if (json()) {
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("action", name());
                json.put("ok", error == null);
                json.put("shards", cluster.shards().shards().stream().map(Object::toString).toList());
                json.put("error", error);
                if (!versions().isEmpty()) {
                    Map<String, String> versions = new LinkedHashMap<>();
                    versions().forEach((shard, version) -> versions.put(shard.name(), version));
                    json.put("versions", versions);
                }
                out.print(Json.write(json));
            } else if (error == null) {
                out.printf("schema %s: done on %d shards %s%n", name(), cluster.shards().shards().size(), cluster.shards().shards());
            } else {
                out.printf("schema %s: %s%n", name(), error);
            }
            return exitCode;
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Drop and create the mapped tables on every shard: ALL ROWS ARE LOST. Needs --yes.")
    static final class Create extends Action {

        @Option(names = "--yes", description = "Confirm that every mapped table on every shard may be dropped.")
        private boolean yes;

        Create(Map<String, String> environment) {
            super(environment);
        }

        @Override
        String name() {
            return "create";
        }

        @Override
        protected void checkOptions() {
            if (!yes) {
                throw new CliException(ExitCodes.USAGE, "schema create drops every mapped table on every shard. Fix: "
                        + "add --yes to confirm, or use schema update to only add what is missing");
            }
        }

        @Override
        void apply(Cluster cluster) {
            cluster.shards().schema().create();
        }
    }

    @Command(name = "update", mixinStandardHelpOptions = true,
            description = "Add missing tables and columns on every shard (never drops anything).")
    static final class Update extends Action {

        Update(Map<String, String> environment) {
            super(environment);
        }

        @Override
        String name() {
            return "update";
        }

        @Override
        void apply(Cluster cluster) {
            cluster.shards().schema().update();
        }
    }

    @Command(name = "validate", mixinStandardHelpOptions = true,
            description = "Check the mapped tables on every shard; exit code 1 naming the first shard that differs.")
    static final class Validate extends Action {

        Validate(Map<String, String> environment) {
            super(environment);
        }

        @Override
        String name() {
            return "validate";
        }

        @Override
        void apply(Cluster cluster) {
            cluster.shards().schema().validate();
        }
    }

    @Command(name = "migrate", mixinStandardHelpOptions = true,
            description = {"Run the application's migrations (atomicshards.migrations.tool: flyway or liquibase) on "
                    + "every shard, one at a time in topology order; shards already up to date are left as they are. Prints "
                    + "each shard's schema version afterwards.",
                    "Exit code 3 if no migration tool is configured; 5 naming the shard whose migration failed (the "
                            + "shards before it are migrated, those after it untouched)."})
    static final class Migrate extends Action {

        private Map<org.atomicshards.hibernate.ShardId, String> versions = Map.of();

        Migrate(Map<String, String> environment) {
            super(environment);
        }

        @Override
        String name() {
            return "migrate";
        }

        @Override
        void apply(Cluster cluster) {
            if (!cluster.runtime().schema().migrations().configured()) {
                throw new CliException(ExitCodes.CONFIGURATION, "Setting 'atomicshards.migrations.tool' is none in the "
                        + "settings file, so there are no migrations to run. Fix: set it to flyway (with "
                        + "atomicshards.migrations.locations) or liquibase (with atomicshards.migrations.changelog)");
            }
            versions = cluster.shards().schema().migrate();
        }

        @Override
        Map<org.atomicshards.hibernate.ShardId, String> versions() {
            return versions;
        }

        @Override
        protected int run(Cluster cluster, PrintWriter out) {
            int exitCode = super.run(cluster, out);
            if (!json()) {
                versions.forEach((shard, version) -> out.printf("  %s: version %s%n", shard, version));
            }
            return exitCode;
        }
    }
}
