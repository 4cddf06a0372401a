package org.atomicshards.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the main job's data (3,000 users of the samples' model on four H2 shards, 1,024 virtual shards) into H2
 * files under a directory, with the settings file the tool reads: {@code <directory>/atomicshards.properties}.
 * Also copies every row into one unsharded database, {@code atomicshards-single}, the kind of database
 * {@code advise} is pointed at before sharding. The file names the shards relative to that directory ({@code jdbc:h2:file:./atomicshards-s0}), so run the tool
 * from there. Run by {@code mvn -Psample-shards verify} (module sharding-cli), for docs/operations.md ("Try it on the sample").
 */
public final class SampleCatalog {

    private SampleCatalog() {
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args.length > 0 ? args[0] : "target/sample-shards").toAbsolutePath();
        Files.createDirectories(directory);
        SampleShards shards = SampleShards.create(directory, true, args.length > 1 ? Integer.parseInt(args[1]) : 3000,
                "atomicshards", null, 1024, true);
        System.out.println("Wrote " + shards.userIds.size() + " users on 4 shards; settings: " + shards.settingsFile);
        Path single = directory.resolve("atomicshards-single");
        SingleDatabase.copy(shards, "jdbc:h2:file:" + single);
        System.out.println("Copied every row into one unsharded database, jdbc:h2:file:" + single + " (for advise)");
    }
}
