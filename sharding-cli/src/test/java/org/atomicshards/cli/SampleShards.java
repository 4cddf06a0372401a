package org.atomicshards.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.samples.model.Country;
import org.atomicshards.samples.model.Photo;
import org.atomicshards.samples.model.Status;
import org.atomicshards.samples.model.User;

/**
 * The samples' model (User with its Statuses and Photos, Country as reference data) on H2 shards, written the way
 * the main job writes it, with the settings file the tool reads. Shards are in memory (same JVM as the test) or in
 * files under a directory (for a separate process).
 */
final class SampleShards {

    final Path settingsFile;
    /** Every setting, passwords included; the file holds all but the passwords. */
    final Map<String, String> settings;
    /** The shards' password, given to the tool through the environment only. */
    final String password;
    /** Rows written per shard: users, statuses, photos. */
    final Map<String, long[]> written = new LinkedHashMap<>();
    final List<Long> userIds = new ArrayList<>();
    /** The owner of each virtual shard in the first map, by virtual shard number. */
    final List<String> initialOwners = new ArrayList<>();

    private SampleShards(Path settingsFile, Map<String, String> settings, String password) {
        this.settingsFile = settingsFile;
        this.settings = settings;
        this.password = password;
    }

    /** The environment that gives the tool the shards' passwords ({@code ATOMICSHARDS_SHARD_<ID>_PASSWORD}). */
    Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        for (int i = 0; i < 4; i++) {
            environment.put("ATOMICSHARDS_SHARD_S" + i + "_PASSWORD", password);
        }
        return environment;
    }

    /** Four shards, 64 virtual shards, HASH with sequence keys; {@code users} users written; a random password. */
    static SampleShards create(Path directory, boolean files, int users) throws IOException {
        return create(directory, files, users, "cli-" + UUID.randomUUID().toString().substring(0, 8),
                "pw-" + UUID.randomUUID(), 64, false);
    }

    /**
     * @param name     prefix of the databases and of the settings file ({@code <name>.properties})
     * @param password the shards' password (user {@code app}), or null for H2's default user without one
     * @param relativeUrls whether the settings file names the H2 files relative to its own directory
     */
    static SampleShards create(Path directory, boolean files, int users, String name, String password, int virtualShards,
                               boolean relativeUrls) throws IOException {
        return create(directory, files, users, name, password, virtualShards, relativeUrls, "hash");
    }

    /** As {@link #create(Path, boolean, int)} in memory, with User on a consistent-hash ring of the four shards. */
    static SampleShards createOnRing(Path directory, int users) throws IOException {
        return create(directory, false, users, "cli-" + UUID.randomUUID().toString().substring(0, 8),
                "pw-" + UUID.randomUUID(), 64, false, "consistent_hash");
    }

    private static SampleShards create(Path directory, boolean files, int users, String name, String password,
                                       int virtualShards, boolean relativeUrls, String policy) throws IOException {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("atomicshards.shards", "s0,s1,s2,s3");
        for (int i = 0; i < 4; i++) {
            settings.put("atomicshards.shard.s" + i + ".url", url(directory, files, name + "-s" + i));
            if (password != null) {
                settings.put("atomicshards.shard.s" + i + ".user", "app");
            }
        }
        settings.put("atomicshards.virtual_shards", Integer.toString(virtualShards));
        settings.put("atomicshards.catalog.url", url(directory, files, name + "-catalog"));
        settings.put("atomicshards.unit.User.policy", policy);
        settings.put("atomicshards.unit.User.key_generation", "sequence");
        Path file = directory.resolve(name + ".properties");
        Properties properties = new Properties();
        properties.putAll(settings);
        if (files && relativeUrls) {
            // H2 resolves "./" against the working directory: the file then works from the shards' directory
            properties.replaceAll((key, value) -> value.toString().replace("jdbc:h2:file:" + directory.toAbsolutePath() + "/", "jdbc:h2:file:./"));
        }
        if (password != null) {
            for (int i = 0; i < 4; i++) {
                settings.put("atomicshards.shard.s" + i + ".password", password);
            }
        }
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            writer.write("# the samples' model on four H2 shards (values need no escaping)\n");
            for (String key : new java.util.TreeSet<>(properties.stringPropertyNames())) {
                writer.write(key + "=" + properties.getProperty(key) + "\n");
            }
        }
        SampleShards shards = new SampleShards(file, settings, password);
        shards.populate(users);
        return shards;
    }

    private static String url(Path directory, boolean files, String database) {
        return files ? "jdbc:h2:file:" + directory.resolve(database).toAbsolutePath()
                : "jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1";
    }

    /** Runs the tool in this JVM on these shards: {@code command} (words split on spaces), then the settings file. */
    CliRun run(String command, String... more) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.add("--config");
        args.add(settingsFile.toString());
        args.addAll(List.of(more));
        return CliRun.of(environment(), args.toArray(String[]::new));
    }

    /** A factory on these shards (the caller closes it). */
    ShardedSessionFactory boot(String schemaAction) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                .annotatedClasses(User.class, Status.class, Photo.class, Country.class)
                .schemaAction(schemaAction);
        settings.forEach(builder::property);
        return builder.build();
    }

    private void populate(int users) {
        try (ShardedSessionFactory shards = boot("create")) {
            written.putAll(write(shards, users, userIds));
            for (int v = 0; v < shards.directory().virtualShards(); v++) {
                initialOwners.add(shards.directory().shardOf(v).name());
            }
        }
    }

    /**
     * Writes the samples' data the way the main job does: three countries on every shard, then {@code users} users,
     * each with one to three statuses and up to two photos (a fixed random sequence).
     *
     * @param userIds receives the new users' ids, in the order written
     * @return rows written per shard (users, statuses, photos), with every shard of the factory present
     */
    static Map<String, long[]> write(ShardedSessionFactory shards, int users, List<Long> userIds) {
        shards.replicate(session -> {
            session.persist(new Country("FR", "France"));
            session.persist(new Country("JP", "Japan"));
            session.persist(new Country("BR", "Brazil"));
        });
        Map<String, long[]> written = new LinkedHashMap<>();
        shards.shards().forEach(shard -> written.put(shard.name(), new long[3]));
        Random random = new Random(7);
        String[] countries = {"FR", "JP", "BR"};
        for (int i = 0; i < users; i++) {
            Country country = shards.find(Country.class, countries[i % countries.length]);
            User user = new User("user" + i + "@example.com", country);
            shards.persist(user);
            int statuses = 1 + random.nextInt(3);
            int photos = random.nextInt(3);
            shards.inUnit(User.class, user.getId(), session -> {
                User managed = session.getReference(User.class, user.getId());
                for (int s = 0; s < statuses; s++) {
                    session.persist(new Status(managed, "status " + s, Instant.now()));
                }
                for (int p = 0; p < photos; p++) {
                    session.persist(new Photo(user.getId(), "https://blobs.example.com/" + user.getId() + "/" + p));
                }
            });
            ShardId shard = shards.shardFor(User.class, user.getId()).orElseThrow();
            long[] counts = written.get(shard.name());
            counts[0]++;
            counts[1] += statuses;
            counts[2] += photos;
            userIds.add(user.getId());
        }
        return written;
    }
}
