package org.atomicshards.cli.internal;

import java.nio.file.Path;
import java.util.List;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options naming the application's shards: its settings file and its entity model. */
public final class ShardsOptions {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", required = true,
            description = "Properties file with the application's atomicshards.* settings (shards, catalog, "
                    + "policies). Users and passwords may come from the environment instead: "
                    + "ATOMICSHARDS_SHARD_<ID>_USER / _PASSWORD (<ID>: the shard id in upper case, other characters "
                    + "as _), ATOMICSHARDS_CATALOG_USER / _PASSWORD.")
    private Path config;

    @Mixin
    private ModelOptions model = new ModelOptions();

    public Path config() {
        return config;
    }

    public List<Path> modelPaths() {
        return model.paths();
    }
}
