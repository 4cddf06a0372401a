package org.atomicshards.cli.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;

/** Where the annotated entities are. */
public final class ModelOptions {

    @Option(names = {"-m", "--model"}, paramLabel = "PATH", split = ",",
            description = "Jar(s) or class directories with the annotated entities and the "
                    + "META-INF/atomic-shards/units.properties that sharding-processor writes, plus any jar they "
                    + "need (repeat the option or separate with ','). Default: the tool's class path.")
    private List<Path> paths = new ArrayList<>();

    public List<Path> paths() {
        return paths;
    }
}
