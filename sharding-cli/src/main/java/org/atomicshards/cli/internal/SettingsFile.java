package org.atomicshards.cli.internal;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.hibernate.ShardingSettings;

/**
 * The runtime's settings as the tool reads them: a properties file with the same {@code atomicshards.*} (and
 * Hibernate) keys the application uses, plus users and passwords from environment variables, so that no secret
 * needs to be written into the file:
 *
 * <ul>
 *   <li>{@code ATOMICSHARDS_SHARD_<ID>_USER} / {@code ATOMICSHARDS_SHARD_<ID>_PASSWORD} set
 *       {@code atomicshards.shard.<id>.user} / {@code .password}, where {@code <ID>} is the shard id in upper case
 *       with every character other than a letter or digit replaced by {@code _} (shard {@code eu-1}:
 *       {@code ATOMICSHARDS_SHARD_EU_1_PASSWORD});
 *   <li>{@code ATOMICSHARDS_CATALOG_USER} / {@code ATOMICSHARDS_CATALOG_PASSWORD} set the catalog's.
 * </ul>
 * An environment variable wins over the same setting in the file.
 */
public final class SettingsFile {

    private SettingsFile() {
    }

    /**
     * @throws CliException (exit code {@link ExitCodes#CONFIGURATION}) if the file is missing or unreadable, or
     *                      lists no shards
     */
    public static Map<String, Object> read(Path file, Map<String, String> environment) {
        if (file == null) {
            throw new CliException(ExitCodes.CONFIGURATION, "No settings: option --config is missing. Fix: pass "
                    + "--config FILE, a properties file with the atomicshards.* settings of the application");
        }
        if (!Files.isRegularFile(file)) {
            throw new CliException(ExitCodes.CONFIGURATION, "Settings file " + file.toAbsolutePath()
                    + " (option --config) does not exist or is not a file. Fix: pass the path of the properties file");
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new CliException(ExitCodes.CONFIGURATION, "Cannot read settings file " + file.toAbsolutePath()
                    + " (option --config): " + e.getMessage() + ". Fix: a UTF-8 properties file", e);
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        properties.stringPropertyNames().stream().sorted()
                .forEach(name -> settings.put(name, properties.getProperty(name).trim()));
        Object shards = settings.get(ShardingSettings.SHARDS);
        if (shards == null || shards.toString().isBlank()) {
            throw new CliException(ExitCodes.CONFIGURATION, "Settings file " + file.toAbsolutePath() + " has no "
                    + ShardingSettings.SHARDS + ". Fix: list the shard ids, e.g. " + ShardingSettings.SHARDS + "=s0,s1");
        }
        applyEnvironment(settings, environment);
        return settings;
    }

    /** Copies the users and passwords given as environment variables into {@code settings}. */
    static void applyEnvironment(Map<String, Object> settings, Map<String, String> environment) {
        for (String id : shardIds(settings)) {
            String variable = "ATOMICSHARDS_SHARD_" + variablePart(id) + "_";
            copy(environment, variable + "USER", settings, ShardingSettings.SHARD_PREFIX + id + ".user");
            copy(environment, variable + "PASSWORD", settings, ShardingSettings.SHARD_PREFIX + id + ".password");
        }
        copy(environment, "ATOMICSHARDS_CATALOG_USER", settings, ShardingSettings.CATALOG_USER);
        copy(environment, "ATOMICSHARDS_CATALOG_PASSWORD", settings, ShardingSettings.CATALOG_PASSWORD);
    }

    /**
     * The shards listed in {@link ShardingSettings#SHARDS} and those with any {@code atomicshards.shard.<id>.*}
     * setting (a shard added at run time, whose URL the catalog has, is named only by its user setting).
     */
    private static Set<String> shardIds(Map<String, Object> settings) {
        Set<String> ids = new LinkedHashSet<>();
        Arrays.stream(settings.get(ShardingSettings.SHARDS).toString().split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).forEach(ids::add);
        for (String key : settings.keySet()) {
            int dot = key.indexOf('.', ShardingSettings.SHARD_PREFIX.length());
            if (key.startsWith(ShardingSettings.SHARD_PREFIX) && dot > ShardingSettings.SHARD_PREFIX.length()) {
                ids.add(key.substring(ShardingSettings.SHARD_PREFIX.length(), dot));
            }
        }
        return ids;
    }

    /** The environment variable spelling of a shard id: upper case, anything but letters and digits as {@code _}. */
    public static String variablePart(String shardId) {
        return shardId.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    private static void copy(Map<String, String> environment, String variable, Map<String, Object> settings, String key) {
        String value = environment.get(variable);
        if (value != null && !value.isEmpty()) {
            settings.put(key, value);
        }
    }
}
