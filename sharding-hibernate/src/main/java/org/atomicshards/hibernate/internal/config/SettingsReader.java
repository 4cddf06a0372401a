package org.atomicshards.hibernate.internal.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.directory.CatalogOptions;
import org.atomicshards.hibernate.internal.directory.CatalogSchemaAction;
import org.atomicshards.hibernate.spi.SelectionPolicies;

/**
 * Reads Atomic Shards' settings from a Hibernate settings map and validates them. Every error names the setting,
 * the offending value and the fix; passwords are never echoed.
 */
public final class SettingsReader {

    /** Internal setting carrying the schema action taken over from Hibernate's standard schema settings. */
    public static final String SCHEMA_ACTION = "atomicshards.schema.action";

    private static final int MAX_VIRTUAL_SHARDS = 1 << 20;

    private final Map<String, ?> settings;

    private SettingsReader(Map<String, ?> settings) {
        this.settings = settings;
    }

    /** Whether {@code settings} configure Atomic Shards at all (the {@code atomicshards.shards} setting is present). */
    public static boolean isConfigured(Map<?, ?> settings) {
        return settings.get(ShardingSettings.SHARDS) != null;
    }

    /** Whether {@code key} names one of our passwords (a shard's or the catalog's). */
    public static boolean isPasswordSetting(Object key) {
        if (!(key instanceof String name)) {
            return false;
        }
        return name.equals(ShardingSettings.CATALOG_PASSWORD)
                || (name.startsWith(ShardingSettings.SHARD_PREFIX) && name.endsWith(".password"));
    }

    /** @throws ShardConfigurationException naming the first invalid setting */
    public static ShardingConfig read(Map<String, ?> settings) {
        return new SettingsReader(settings).read();
    }

    private ShardingConfig read() {
        List<ShardId> ids = shardIds();
        int maxTotal = positiveInt(ShardingSettings.POOL_MAX_TOTAL, ShardingSettings.defaultMaxTotal(ids.size()));
        if (maxTotal < ids.size()) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.POOL_MAX_TOTAL + "' has value '"
                    + maxTotal + "' but there are " + ids.size() + " shards and each pool needs a connection. Fix: "
                    + "raise " + ShardingSettings.POOL_MAX_TOTAL + " to at least " + ids.size()
                    + " (or remove it: the default is " + ShardingSettings.defaultMaxTotal(ids.size()) + ")");
        }
        int defaultPoolSize = positiveInt(ShardingSettings.POOL_SIZE, maxTotal / ids.size());
        List<ShardSpec> specs = new ArrayList<>();
        int totalPool = 0;
        for (ShardId id : ids) {
            String prefix = ShardingSettings.SHARD_PREFIX + id + ".";
            String url = string(prefix + "url");
            if (url == null || url.isBlank()) {
                throw new ShardConfigurationException("Setting '" + prefix + "url' is missing: shard '" + id
                        + "' is listed in " + ShardingSettings.SHARDS + " but has no JDBC URL. Fix: set " + prefix
                        + "url, e.g. jdbc:h2:mem:" + id);
            }
            if (!url.startsWith("jdbc:")) {
                throw new ShardConfigurationException("Setting '" + prefix + "url' has value '"
                        + Redaction.url(url) + "', which is not a JDBC URL. Fix: use a URL starting with 'jdbc:'");
            }
            int poolSize = positiveInt(prefix + "pool_size", defaultPoolSize);
            totalPool += poolSize;
            UrlCredentials connection = connection(prefix + "url", url, prefix + "user", prefix + "password");
            specs.add(new ShardSpec(id, connection.url(), connection.user(), connection.password(), poolSize));
        }
        if (totalPool > maxTotal) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.POOL_MAX_TOTAL + "' has value '"
                    + maxTotal + "' but the shard pools add up to " + totalPool + " connections. Fix: raise "
                    + ShardingSettings.POOL_MAX_TOTAL + " to at least " + totalPool + " or lower "
                    + ShardingSettings.POOL_SIZE + " / atomicshards.shard.<id>.pool_size");
        }
        int virtualShards = positiveInt(ShardingSettings.VIRTUAL_SHARDS, ShardingSettings.DEFAULT_VIRTUAL_SHARDS);
        if (virtualShards > MAX_VIRTUAL_SHARDS) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.VIRTUAL_SHARDS + "' has value '"
                    + virtualShards + "'. Fix: use at most " + MAX_VIRTUAL_SHARDS);
        }
        if (virtualShards < ids.size()) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.VIRTUAL_SHARDS + "' has value '"
                    + virtualShards + "', fewer than the " + ids.size() + " physical shards, so some shard could "
                    + "never own a key. Fix: use at least " + ids.size() + " (plan for the most shards you will ever need)");
        }
        String mapText = string(ShardingSettings.VIRTUAL_SHARD_MAP);
        ShardId[] map = mapText == null
                ? Topology.evenSplit(ids, virtualShards)
                : parseMap(mapText, new HashSet<>(ids), virtualShards);
        long timeout = positiveInt(ShardingSettings.POOL_CONNECTION_TIMEOUT, 5000);
        if (timeout < 250) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.POOL_CONNECTION_TIMEOUT
                    + "' has value '" + timeout + "'. Fix: use at least 250 (HikariCP's minimum)");
        }
        Optional<ShardId> defaultShard = Optional.ofNullable(string(ShardingSettings.DEFAULT_SHARD))
                .map(name -> shardIdIn(ShardingSettings.DEFAULT_SHARD, name, ids));
        int worker = nonNegativeInt(ShardingSettings.SNOWFLAKE_WORKER, 0);
        if (worker > 31) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.SNOWFLAKE_WORKER + "' has value '"
                    + worker + "'. Fix: use a worker id from 0 to 31, unique per running instance");
        }
        String schemaAction = Optional.ofNullable(string(SCHEMA_ACTION)).orElse("none");
        UrlCredentials catalog = connection(ShardingSettings.CATALOG_URL, catalogUrl(specs),
                ShardingSettings.CATALOG_USER, ShardingSettings.CATALOG_PASSWORD);
        return new ShardingConfig(new Topology(specs, virtualShards, map, mapText != null,
                unlistedShards(ids), defaultPoolSize), maxTotal, timeout,
                catalog.url(), catalog.user(), catalog.password(),
                policies(virtualShards), defaultShard, worker,
                positiveInt(ShardingSettings.SEQUENCE_BLOCK_SIZE, 1000),
                bool(ShardingSettings.MODEL_CHECK, true), schemaAction,
                bool(ShardingSettings.BOOT_CONNECTION_CHECK, true), timeouts(timeout), idleConnections(specs),
                catalogOptions(), replicas(specs, defaultPoolSize));
    }

    /**
     * The replicas named by {@code atomicshards.shard.<shard>.replica.<name>.<property>} settings, for listed shards
     * and for shards this instance may meet later (added at run time), and the settings of replica reads.
     */
    private ReplicaConfig replicas(List<ShardSpec> specs, int defaultPoolSize) {
        Map<ShardId, ShardSpec> listed = new HashMap<>();
        specs.forEach(spec -> listed.put(spec.id(), spec));
        Map<ShardId, Map<String, ReplicaSpec>> byShard = new TreeMap<>();
        for (String key : settings.keySet()) {
            int infix = key.indexOf(ShardingSettings.REPLICA_INFIX);
            if (!key.startsWith(ShardingSettings.SHARD_PREFIX) || infix < 0) {
                continue;
            }
            ShardId shard = replicaPart(key, key.substring(ShardingSettings.SHARD_PREFIX.length(), infix), "shard");
            String rest = key.substring(infix + ShardingSettings.REPLICA_INFIX.length());
            int dot = rest.indexOf('.');
            String property = dot < 0 ? "" : rest.substring(dot + 1);
            if (!List.of("url", "user", "password", "pool_size").contains(property)) {
                throw new ShardConfigurationException("Setting '" + key + "' is not a replica setting. Fix: name "
                        + "a replica's settings " + ShardingSettings.SHARD_PREFIX + shard
                        + ShardingSettings.REPLICA_INFIX + "<name>.url (and .user, .password, .pool_size)");
            }
            String name = replicaPart(key, rest.substring(0, dot), "replica").name();
            if (!byShard.computeIfAbsent(shard, id -> new TreeMap<>()).containsKey(name)) {
                byShard.get(shard).put(name, replica(shard, name, listed.get(shard), defaultPoolSize));
            }
        }
        Map<ShardId, List<ReplicaSpec>> replicas = new HashMap<>();
        byShard.forEach((shard, named) -> replicas.put(shard, List.copyOf(named.values())));
        long maxLag = nonNegativeInt(ShardingSettings.REPLICA_MAX_LAG,
                (int) ShardingSettings.DEFAULT_REPLICA_MAX_LAG);
        return new ReplicaConfig(replicas, bool(ShardingSettings.REPLICA_READS, false), maxLag,
                bool(ShardingSettings.REPLICA_READ_YOUR_WRITES, false),
                nonNegativeInt(ShardingSettings.REPLICA_READ_YOUR_WRITES_WAIT,
                        (int) ShardingSettings.DEFAULT_REPLICA_READ_YOUR_WRITES_WAIT));
    }

    private ShardId replicaPart(String key, String text, String what) {
        try {
            return ShardId.of(text);
        } catch (IllegalArgumentException e) {
            throw new ShardConfigurationException("Setting '" + key + "' names " + what + " '" + text + "': "
                    + e.getMessage(), e);
        }
    }

    /** One replica's settings; user, password and pool size default to its shard's (when the shard is listed). */
    private ReplicaSpec replica(ShardId shard, String name, ShardSpec primary, int defaultPoolSize) {
        String prefix = ShardingSettings.SHARD_PREFIX + shard + ShardingSettings.REPLICA_INFIX + name + ".";
        String url = string(prefix + "url");
        if (url == null || url.isBlank()) {
            throw new ShardConfigurationException("Setting '" + prefix + "url' is missing: replica '" + name
                    + "' of shard '" + shard + "' has other settings but no JDBC URL. Fix: set " + prefix + "url");
        }
        String lower = url.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("jdbc:postgresql:") && !lower.startsWith("jdbc:mariadb:")) {
            throw new ShardConfigurationException("Setting '" + prefix + "url' has value '" + Redaction.url(url)
                    + "', but replicas are read only where their lag can be measured: PostgreSQL standbys and "
                    + "MariaDB replicas. Fix: use a jdbc:postgresql: or jdbc:mariadb: URL");
        }
        UrlCredentials connection = connection(prefix + "url", url, prefix + "user", prefix + "password");
        boolean ownCredentials = connection.user() != null || connection.password() != null;
        String shardPrefix = ShardingSettings.SHARD_PREFIX + shard + ".";
        // a shard added at run time: the credentials this instance's settings give it
        String user = ownCredentials ? connection.user()
                : primary != null ? primary.user() : string(shardPrefix + "user");
        String password = ownCredentials ? connection.password()
                : primary != null ? primary.password() : string(shardPrefix + "password");
        int poolSize = positiveInt(prefix + "pool_size", primary != null ? primary.poolSize() : defaultPoolSize);
        return new ReplicaSpec(shard, name, connection.url(), user, password, poolSize);
    }

    private IdleConnections idleConnections(List<ShardSpec> specs) {
        IdleConnections defaults = IdleConnections.defaultsFor(specs.size());
        int minIdle = nonNegativeInt(ShardingSettings.POOL_MIN_IDLE, defaults.minIdle());
        for (ShardSpec spec : specs) {
            if (minIdle > spec.poolSize()) {
                throw new ShardConfigurationException("Setting '" + ShardingSettings.POOL_MIN_IDLE + "' has value '"
                        + minIdle + "' but the pool of shard '" + spec.id() + "' holds at most " + spec.poolSize()
                        + " connections, so it could never keep that many idle. Fix: lower "
                        + ShardingSettings.POOL_MIN_IDLE + " to at most " + spec.poolSize() + " or raise "
                        + ShardingSettings.POOL_SIZE + " / " + ShardingSettings.SHARD_PREFIX + spec.id()
                        + ".pool_size");
            }
        }
        long idleTimeout = nonNegativeInt(ShardingSettings.POOL_IDLE_TIMEOUT,
                (int) defaults.idleTimeoutMillis());
        if (idleTimeout < IdleConnections.MIN_IDLE_TIMEOUT_MILLIS
                || idleTimeout > IdleConnections.MAX_IDLE_TIMEOUT_MILLIS) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.POOL_IDLE_TIMEOUT + "' has value '"
                    + idleTimeout + "'. Fix: use from " + IdleConnections.MIN_IDLE_TIMEOUT_MILLIS
                    + " (HikariCP's minimum) to " + IdleConnections.MAX_IDLE_TIMEOUT_MILLIS
                    + " (below a connection's 30-minute maximum lifetime), e.g. " + defaults.idleTimeoutMillis());
        }
        return new IdleConnections(minIdle, idleTimeout);
    }

    private ShardTimeouts timeouts(long connectionTimeout) {
        long transaction = atLeastOneSecond(ShardingSettings.TRANSACTION_TIMEOUT,
                ShardTimeouts.DEFAULT_TRANSACTION_TIMEOUT_MILLIS);
        long fanOut;
        try {
            fanOut = FanOutSettings.fromProperties(settings).timeout().toMillis();
        } catch (IllegalArgumentException e) {
            throw new ShardConfigurationException(e.getMessage(), e);
        }
        long socket = atLeastOneSecond(ShardingSettings.POOL_SOCKET_TIMEOUT,
                ShardTimeouts.defaultSocketTimeout(transaction, fanOut));
        return new ShardTimeouts(connectionTimeout, ShardTimeouts.validationTimeoutFor(connectionTimeout),
                transaction, socket);
    }

    private long atLeastOneSecond(String setting, long fallback) {
        long value = positiveInt(setting, (int) Math.min(Integer.MAX_VALUE, fallback));
        if (value < 1000) {
            throw new ShardConfigurationException("Setting '" + setting + "' has value '" + value
                    + "'. Fix: use at least 1000 (JDBC drivers count these timeouts in whole seconds)");
        }
        return value;
    }

    /**
     * The URL of {@code urlSetting} without credentials, and the user and password from the URL or from their own
     * settings. The same value in both places is accepted; two different values fail, because either choice could
     * silently connect with the wrong account.
     */
    private UrlCredentials connection(String urlSetting, String url, String userSetting, String passwordSetting) {
        UrlCredentials fromUrl = UrlCredentials.extract(url);
        String user = oneOf(urlSetting, fromUrl.user(), userSetting, string(userSetting), "user");
        String password = oneOf(urlSetting, fromUrl.password(), passwordSetting, string(passwordSetting), "password");
        return new UrlCredentials(fromUrl.url(), user, password);
    }

    private static String oneOf(String urlSetting, String inUrl, String setting, String inSetting, String what) {
        if (inUrl != null && inSetting != null && !inUrl.equals(inSetting)) {
            throw new ShardConfigurationException("Setting '" + urlSetting + "' carries a " + what + " and setting '"
                    + setting + "' gives a different one, so it is unclear which to connect with. Fix: give the "
                    + what + " in one place only, preferably in '" + setting + "' (a URL is easily logged)");
        }
        return inUrl != null ? inUrl : inSetting;
    }

    /** Whether {@code key} names one of our JDBC URLs (a shard's or the catalog's). */
    public static boolean isUrlSetting(Object key) {
        if (!(key instanceof String name)) {
            return false;
        }
        return name.equals(ShardingSettings.CATALOG_URL)
                || (name.startsWith(ShardingSettings.SHARD_PREFIX) && name.endsWith(".url"));
    }

    /**
     * Removes our passwords from {@code settings} and replaces our URLs by their form without credentials (and
     * with any other password-like parameter masked), so that what Hibernate keeps, logs and returns from
     * {@code getProperties()} holds no secret. Call after {@link #read}, which needs the originals.
     */
    public static void scrub(Map<String, Object> settings) {
        settings.keySet().removeIf(SettingsReader::isPasswordSetting);
        settings.replaceAll((key, value) -> isUrlSetting(key) && value != null
                ? Redaction.url(UrlCredentials.extract(value.toString()).url())
                : value);
    }

    /**
     * The catalog URL, refusing the implicit embedded default when a shard is a server database: each instance would
     * get a private catalog of its own (units placed twice, ids handed out twice) without any error.
     */
    private String catalogUrl(List<ShardSpec> specs) {
        String url = string(ShardingSettings.CATALOG_URL);
        if (url != null && !url.isBlank()) {
            return url;
        }
        Optional<ShardSpec> server = specs.stream().filter(spec -> !spec.embeddedH2()).findFirst();
        if (server.isPresent() && !bool(ShardingSettings.CATALOG_SINGLE_INSTANCE, false)) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.CATALOG_URL + "' is missing while "
                    + "shard '" + server.get().id() + "' is a server database (" + Redaction.url(server.get().url())
                    + "): the default catalog is an H2 file in each instance's working directory, so every instance "
                    + "would place units and hand out ids on its own. Fix: set " + ShardingSettings.CATALOG_URL
                    + " to a database every instance shares (e.g. jdbc:postgresql://host/app_catalog), or declare a "
                    + "single-instance deployment with " + ShardingSettings.CATALOG_SINGLE_INSTANCE + "=true");
        }
        return ShardingSettings.DEFAULT_CATALOG_URL;
    }

    private CatalogOptions catalogOptions() {
        CatalogSchemaAction action = enumValue(ShardingSettings.CATALOG_SCHEMA, CatalogSchemaAction.class,
                CatalogOptions.DEFAULTS.schemaAction());
        int connectionTimeout = positiveInt(ShardingSettings.CATALOG_CONNECTION_TIMEOUT,
                (int) CatalogOptions.DEFAULTS.connectionTimeoutMillis());
        if (connectionTimeout < 250) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.CATALOG_CONNECTION_TIMEOUT
                    + "' has value '" + connectionTimeout + "'. Fix: use at least 250 (HikariCP's minimum)");
        }
        int lockTimeout = positiveInt(ShardingSettings.CATALOG_LOCK_TIMEOUT,
                (int) CatalogOptions.DEFAULTS.lockTimeoutMillis());
        int refreshInterval = nonNegativeInt(ShardingSettings.CATALOG_REFRESH_INTERVAL,
                (int) CatalogOptions.DEFAULTS.refreshIntervalMillis());
        if (refreshInterval > 0 && refreshInterval < 100) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.CATALOG_REFRESH_INTERVAL
                    + "' has value '" + refreshInterval + "'. Fix: use at least 100, or 0 to never refresh");
        }
        return new CatalogOptions(action, connectionTimeout, lockTimeout, refreshInterval);
    }

    /**
     * Connection settings given for shard ids that {@code atomicshards.shards} does not list: shards added at run
     * time (by this or another instance) that this instance should reach with its own URL or credentials.
     */
    private Map<ShardId, Topology.Credentials> unlistedShards(List<ShardId> listed) {
        Set<ShardId> ids = new LinkedHashSet<>();
        for (String key : settings.keySet()) {
            if (key.startsWith(ShardingSettings.SHARD_PREFIX)) {
                String rest = key.substring(ShardingSettings.SHARD_PREFIX.length());
                int dot = rest.lastIndexOf('.');
                if (dot > 0) {
                    try {
                        ShardId id = ShardId.of(rest.substring(0, dot));
                        if (!listed.contains(id)) {
                            ids.add(id);
                        }
                    } catch (IllegalArgumentException notAShardId) {
                        // not one of ours to interpret
                    }
                }
            }
        }
        Map<ShardId, Topology.Credentials> result = new HashMap<>();
        for (ShardId id : ids) {
            String prefix = ShardingSettings.SHARD_PREFIX + id + ".";
            String url = string(prefix + "url");
            if (url != null && !url.startsWith("jdbc:")) {
                throw new ShardConfigurationException("Setting '" + prefix + "url' has value '"
                        + Redaction.url(url) + "', which is not a JDBC URL. Fix: use a URL starting with 'jdbc:'");
            }
            UrlCredentials connection = url == null
                    ? new UrlCredentials(null, string(prefix + "user"), string(prefix + "password"))
                    : connection(prefix + "url", url, prefix + "user", prefix + "password");
            Integer poolSize = string(prefix + "pool_size") == null ? null : positiveInt(prefix + "pool_size", 1);
            result.put(id, new Topology.Credentials(connection.url(), connection.user(), connection.password(), poolSize));
        }
        return result;
    }

    private List<ShardId> shardIds() {
        String text = string(ShardingSettings.SHARDS);
        if (text == null || text.isBlank()) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.SHARDS
                    + "' is missing or empty. Fix: list the physical shard ids, e.g. s0,s1");
        }
        Set<ShardId> ids = new LinkedHashSet<>();
        for (String part : text.split(",")) {
            String name = part.trim();
            ShardId id;
            try {
                id = ShardId.of(name);
            } catch (IllegalArgumentException e) {
                throw new ShardConfigurationException("Setting '" + ShardingSettings.SHARDS + "' has value '" + text
                        + "': " + e.getMessage(), e);
            }
            if (!ids.add(id)) {
                throw new ShardConfigurationException("Setting '" + ShardingSettings.SHARDS + "' has value '" + text
                        + "', which names shard '" + name + "' twice. Fix: list each shard once");
            }
        }
        return List.copyOf(ids);
    }

    private static ShardId[] parseMap(String text, Set<ShardId> known, int virtualShards) {
        String setting = ShardingSettings.VIRTUAL_SHARD_MAP;
        ShardId[] map = new ShardId[virtualShards];
        for (String entry : text.split(",")) {
            String[] rangeAndShard = entry.trim().split("=");
            if (rangeAndShard.length != 2) {
                throw new ShardConfigurationException("Setting '" + setting + "' has value '" + text
                        + "': entry '" + entry.trim() + "' is not '<from>-<to>=<shard>'. Fix: e.g. 0-511=s0,512-1023=s1");
            }
            int[] bounds = parseBounds(setting, text, rangeAndShard[0].trim());
            ShardId shard = shardIdIn(setting, rangeAndShard[1].trim(), List.copyOf(known));
            for (int v = bounds[0]; v <= bounds[1]; v++) {
                if (v >= virtualShards) {
                    throw new ShardConfigurationException("Setting '" + setting + "' has value '" + text
                            + "': virtual shard " + v + " does not exist (there are " + virtualShards
                            + ", numbered 0-" + (virtualShards - 1) + "). Fix: keep ranges within 0-" + (virtualShards - 1));
                }
                if (map[v] != null) {
                    throw new ShardConfigurationException("Setting '" + setting + "' has value '" + text
                            + "': virtual shard " + v + " is assigned twice (to " + map[v] + " and " + shard
                            + "). Fix: make the ranges disjoint");
                }
                map[v] = shard;
            }
        }
        for (int v = 0; v < virtualShards; v++) {
            if (map[v] == null) {
                int end = v;
                while (end + 1 < virtualShards && map[end + 1] == null) {
                    end++;
                }
                throw new ShardConfigurationException("Setting '" + setting + "' has value '" + text
                        + "': virtual shards " + v + "-" + end + " have no owner. Fix: assign every virtual shard 0-"
                        + (virtualShards - 1) + " to a physical shard");
            }
        }
        return map;
    }

    private static int[] parseBounds(String setting, String text, String range) {
        try {
            int dash = range.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? range : range.substring(0, dash).trim());
            int to = dash < 0 ? from : Integer.parseInt(range.substring(dash + 1).trim());
            if (from < 0 || to < from) {
                throw new NumberFormatException();
            }
            return new int[] {from, to};
        } catch (NumberFormatException e) {
            throw new ShardConfigurationException("Setting '" + setting + "' has value '" + text + "': '" + range
                    + "' is not a range of virtual shards. Fix: write '<from>-<to>' with 0 <= from <= to", e);
        }
    }

    private static ShardId shardIdIn(String setting, String name, List<ShardId> known) {
        ShardId id;
        try {
            id = ShardId.of(name);
        } catch (IllegalArgumentException e) {
            throw new ShardConfigurationException("Setting '" + setting + "' has value '" + name + "': "
                    + e.getMessage(), e);
        }
        if (!known.contains(id)) {
            throw new ShardConfigurationException("Setting '" + setting + "' names unknown shard '" + name
                    + "'. Fix: use one of " + known + " or add it to " + ShardingSettings.SHARDS);
        }
        return id;
    }

    /**
     * The policy of every unit named in an {@code atomicshards.unit.<unit>.<option>} setting, configured by the
     * registered selection policy it names ({@link SelectionPolicies#policy}, the validation the builder and Spring
     * Boot share).
     */
    private Map<String, Policy> policies(int virtualShards) {
        Map<String, Map<String, Object>> units = new LinkedHashMap<>();
        for (Map.Entry<String, ?> setting : settings.entrySet()) {
            String key = setting.getKey();
            if (key.startsWith(ShardingSettings.UNIT_PREFIX)) {
                String rest = key.substring(ShardingSettings.UNIT_PREFIX.length());
                int dot = rest.lastIndexOf('.');
                if (dot > 0) {
                    units.computeIfAbsent(rest.substring(0, dot), unit -> new LinkedHashMap<>())
                            .put(rest.substring(dot + 1), setting.getValue());
                }
            }
        }
        if (units.isEmpty()) {
            return Map.of();
        }
        SelectionPolicies registry = SelectionPolicies.from(settings);
        Map<String, Policy> result = new HashMap<>();
        units.forEach((unit, options) -> result.put(unit, registry.policy(unit, options, virtualShards)));
        return Map.copyOf(result);
    }

    private <E extends Enum<E>> E enumValue(String setting, Class<E> type, E fallback) {
        String text = string(setting);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            return Enum.valueOf(type, text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new ShardConfigurationException("Setting '" + setting + "' has value '" + text + "'. Fix: use one of "
                    + Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT), e);
        }
    }

    private int positiveInt(String setting, int fallback) {
        int value = nonNegativeInt(setting, fallback);
        if (value == 0) {
            throw new ShardConfigurationException("Setting '" + setting + "' has value '0'. Fix: use a positive number");
        }
        return value;
    }

    private int nonNegativeInt(String setting, int fallback) {
        Object raw = settings.get(setting);
        if (raw == null || raw.toString().isBlank()) {
            return fallback;
        }
        try {
            int value = raw instanceof Number n ? n.intValue() : Integer.parseInt(raw.toString().trim());
            if (value < 0) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new ShardConfigurationException("Setting '" + setting + "' has value '" + raw
                    + "', which is not a non-negative whole number. Fix: e.g. " + fallback, e);
        }
    }

    private boolean bool(String setting, boolean fallback) {
        String text = string(setting);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ShardConfigurationException("Setting '" + setting + "' has value '" + text
                    + "'. Fix: use true or false");
        };
    }

    private String string(String setting) {
        Object raw = settings.get(setting);
        return raw == null ? null : raw.toString();
    }
}
