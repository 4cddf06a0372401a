package org.atomicshards.spring.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.atomicshards.hibernate.Access;
import org.atomicshards.hibernate.Combine;
import org.atomicshards.hibernate.ExecutionPolicy;
import org.atomicshards.hibernate.KeyGeneration;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.spi.SelectionPolicies;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * The {@code atomicshards.*} properties of a Spring Boot application: the physical shards (in topology order), the
 * virtual shards, the catalog holding the shard directory, per-unit policies, pool bounds and fan-out settings.
 *
 * <pre>
 * atomicshards:
 *   shards:
 *     - id: s0
 *       url: jdbc:postgresql://db0/shop
 *       username: shop
 *       password: ${DB0_PASSWORD}
 *     - id: s1
 *       url: jdbc:postgresql://db1/shop
 *   virtual-shards: 1024
 *   catalog:
 *     url: jdbc:postgresql://catalog/shop_catalog
 *   units:
 *     Customer:
 *       policy: hash
 *   schema-action: validate
 * </pre>
 *
 * <p>The properties validate themselves when bound (Spring Boot reports a binding failure naming the property, the
 * value and the reason); the runtime then checks what only it can (ranges, the catalog's topology) and fails with a
 * {@link org.atomicshards.hibernate.ShardConfigurationException} that {@link ShardConfigurationFailureAnalyzer}
 * reports in Spring Boot's "Description / Action" form.
 */
@ConfigurationProperties(prefix = "atomicshards")
public class AtomicShardsProperties implements Validator {

    private static final Pattern SHARD_ID = Pattern.compile("[A-Za-z0-9_-]+");

    /** A unit setting named in a runtime message: the unit and the option. */
    private static final Pattern UNIT_SETTING = Pattern.compile("'atomicshards\\.unit\\.([^']+)\\.([a-z0-9_]+)'");

    /** Whether the Atomic Shards auto-configuration is active. */
    private boolean enabled = true;

    /** The physical shards in topology order; the order decides the default even split of virtual shards. */
    private List<Shard> shards = new ArrayList<>();

    /** Number of virtual shards, fixed for the life of the catalog. */
    private int virtualShards = 1024;

    /**
     * The initial virtual-to-physical map as ranges, e.g. {@code 0-511=s0,512-1023=s1}; default: an even contiguous
     * split in topology order. Only used while the catalog holds no map.
     */
    private String virtualShardMap;

    /** Shard that sessions opened with no shard context use; default: none. */
    private String defaultShard;

    /** Schema action run on every shard at boot: none, create, create-drop, update, validate or drop. */
    private String schemaAction = "none";

    private final Catalog catalog = new Catalog();

    private final Pool pool = new Pool();

    private final FanOut fanOut = new FanOut();
    private final Replicas replicas = new Replicas();

    /** Per-unit policies keyed by the root entity's simple or fully qualified class name. */
    private Map<String, Unit> units = new LinkedHashMap<>();

    /** Snowflake worker id of this instance (0-31), unique per running instance. */
    private Integer snowflakeWorkerId;

    /** Ids reserved from the catalog per sequence block. */
    private Integer sequenceBlockSize;

    /** Whether the boot-time model check fails the boot on an error. */
    private boolean modelCheck = true;

    /** Whether the boot opens one connection to every shard, failing on an unreachable one. */
    private boolean bootConnectionCheck = true;

    /** How long a unit of work's transaction may last (every statement gets the time left); default 30s. */
    private Duration transactionTimeout;

    /** Further Hibernate or Atomic Shards settings, passed through unchanged. */
    private Map<String, String> properties = new LinkedHashMap<>();

    @Override
    public boolean supports(Class<?> type) {
        return AtomicShardsProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        AtomicShardsProperties properties = (AtomicShardsProperties) target;
        if (!properties.enabled) {
            return;
        }
        if (properties.shards.isEmpty()) {
            errors.rejectValue("shards", "atomicshards.shards.empty",
                    "no shard is configured. Fix: list at least one shard, e.g. atomicshards.shards[0].id=s0 and "
                            + "atomicshards.shards[0].url=jdbc:h2:mem:s0");
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < properties.shards.size(); i++) {
            Shard shard = properties.shards.get(i);
            String path = "shards[" + i + "]";
            if (shard.id == null || !SHARD_ID.matcher(shard.id).matches()) {
                errors.rejectValue(path + ".id", "atomicshards.shard.id",
                        "must be a non-empty shard id of letters, digits, '_' or '-'. Fix: e.g. s" + i);
            } else if (!ids.add(shard.id)) {
                errors.rejectValue(path + ".id", "atomicshards.shard.id.duplicate",
                        "shard id '" + shard.id + "' is used twice. Fix: give every shard its own id");
            }
            validateDatabase(shard, path, errors);
            for (int r = 0; r < shard.replicas.size(); r++) {
                validateDatabase(shard.replicas.get(r), path + ".replicas[" + r + "]", errors);
            }
        }
        if (properties.virtualShards < 1 || properties.virtualShards > (1 << 20)) {
            errors.rejectValue("virtualShards", "atomicshards.virtual-shards",
                    "must be between 1 and 1048576. Fix: e.g. 1024, at least the number of shards");
        } else if (properties.virtualShards < properties.shards.size()) {
            errors.rejectValue("virtualShards", "atomicshards.virtual-shards",
                    "is smaller than the number of shards (" + properties.shards.size() + "), so some shard would "
                            + "own nothing. Fix: use at least " + properties.shards.size() + ", e.g. 1024");
        }
        if (properties.defaultShard != null && !ids.contains(properties.defaultShard)) {
            errors.rejectValue("defaultShard", "atomicshards.default-shard",
                    "names no configured shard. Fix: use one of " + ids);
        }
        if (!List.of("none", "create", "create-drop", "update", "validate", "drop")
                .contains(properties.schemaAction)) {
            errors.rejectValue("schemaAction", "atomicshards.schema-action",
                    "is not a schema action. Fix: use none, create, create-drop, update, validate or drop");
        }
        Duration timeout = properties.pool.connectionTimeout;
        if (timeout != null && timeout.toMillis() < 250) {
            errors.rejectValue("pool.connectionTimeout", "atomicshards.pool.connection-timeout",
                    "must be at least 250ms. Fix: e.g. 5s");
        }
        if (properties.pool.socketTimeout != null && properties.pool.socketTimeout.toMillis() < 1000) {
            errors.rejectValue("pool.socketTimeout", "atomicshards.pool.socket-timeout",
                    "must be at least 1s (drivers count it in whole seconds). Fix: e.g. 35s");
        }
        if (properties.transactionTimeout != null && properties.transactionTimeout.toMillis() < 1000) {
            errors.rejectValue("transactionTimeout", "atomicshards.transaction-timeout",
                    "must be at least 1s. Fix: e.g. 30s");
        }
        if (properties.fanOut.timeout.isZero() || properties.fanOut.timeout.isNegative()) {
            errors.rejectValue("fanOut.timeout", "atomicshards.fan-out.timeout",
                    "must be positive. Fix: e.g. 30s");
        }
        if (properties.fanOut.parallelism < 1 || properties.fanOut.parallelism > 1024) {
            errors.rejectValue("fanOut.parallelism", "atomicshards.fan-out.parallelism",
                    "must be between 1 and 1024. Fix: e.g. the number of shards");
        }
        if (properties.fanOut.fetchSize < 1) {
            errors.rejectValue("fanOut.fetchSize", "atomicshards.fan-out.fetch-size",
                    "must be at least 1. Fix: e.g. 256");
        }
        if (!properties.units.isEmpty() && !errors.hasFieldErrors("virtualShards")) {
            validateUnits(properties, errors);
        }
    }

    /**
     * Configures every unit's policy with the runtime's own validation ({@link SelectionPolicies#policy}, the code
     * the settings and the builder go through), so that a bad policy option fails the binding naming its property.
     */
    private static void validateUnits(AtomicShardsProperties properties, Errors errors) {
        SelectionPolicies registry;
        try {
            registry = SelectionPolicies.from(properties.properties);
        } catch (ShardConfigurationException e) {
            errors.rejectValue("properties", "atomicshards.selection-policies", e.getMessage());
            return;
        }
        properties.units.forEach((name, unit) -> {
            try {
                registry.policy(name, SettingsMapper.unitSettings(unit), properties.virtualShards);
            } catch (ShardConfigurationException e) {
                Matcher setting = UNIT_SETTING.matcher(e.getMessage());
                String option = setting.find() && setting.group(1).equals(name) ? setting.group(2) : "policy";
                String field = switch (option) {
                    case "policy", "ranges", "access", "combine" -> option;
                    case "key_generation" -> "keyGeneration";
                    case "ring_nodes" -> "ringNodes";
                    default -> "options[" + unit.options.keySet().stream()
                            .filter(key -> key.replace('-', '_').equals(option)).findFirst().orElse(option) + "]";
                };
                errors.rejectValue("units[" + name + "]." + field, "atomicshards.unit." + option,
                        e.getMessage().replace(ShardingSettings.UNIT_PREFIX, "atomicshards.units.")
                                .replace("key_generation", "key-generation").replace("ring_nodes", "ring-nodes"));
            }
        });
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public List<Shard> getShards() {
        return shards;
    }

    public void setShards(List<Shard> shards) {
        this.shards = shards;
    }

    public int getVirtualShards() {
        return virtualShards;
    }

    public void setVirtualShards(int virtualShards) {
        this.virtualShards = virtualShards;
    }

    public String getVirtualShardMap() {
        return virtualShardMap;
    }

    public void setVirtualShardMap(String virtualShardMap) {
        this.virtualShardMap = virtualShardMap;
    }

    public String getDefaultShard() {
        return defaultShard;
    }

    public void setDefaultShard(String defaultShard) {
        this.defaultShard = defaultShard;
    }

    public String getSchemaAction() {
        return schemaAction;
    }

    public void setSchemaAction(String schemaAction) {
        this.schemaAction = schemaAction;
    }

    public Catalog getCatalog() {
        return catalog;
    }

    public Pool getPool() {
        return pool;
    }

    public FanOut getFanOut() {
        return fanOut;
    }

    public Replicas getReplicas() {
        return replicas;
    }

    public Map<String, Unit> getUnits() {
        return units;
    }

    public void setUnits(Map<String, Unit> units) {
        this.units = units;
    }

    public Integer getSnowflakeWorkerId() {
        return snowflakeWorkerId;
    }

    public void setSnowflakeWorkerId(Integer snowflakeWorkerId) {
        this.snowflakeWorkerId = snowflakeWorkerId;
    }

    public Integer getSequenceBlockSize() {
        return sequenceBlockSize;
    }

    public void setSequenceBlockSize(Integer sequenceBlockSize) {
        this.sequenceBlockSize = sequenceBlockSize;
    }

    public boolean isModelCheck() {
        return modelCheck;
    }

    public void setModelCheck(boolean modelCheck) {
        this.modelCheck = modelCheck;
    }

    public boolean isBootConnectionCheck() {
        return bootConnectionCheck;
    }

    public void setBootConnectionCheck(boolean bootConnectionCheck) {
        this.bootConnectionCheck = bootConnectionCheck;
    }

    public Duration getTransactionTimeout() {
        return transactionTimeout;
    }

    public void setTransactionTimeout(Duration transactionTimeout) {
        this.transactionTimeout = transactionTimeout;
    }

    public Map<String, String> getProperties() {
        return properties;
    }

    public void setProperties(Map<String, String> properties) {
        this.properties = properties;
    }

    private static void validateDatabase(Database database, String path, Errors errors) {
        if (database.url == null || !database.url.startsWith("jdbc:")) {
            errors.rejectValue(path + ".url", "atomicshards.shard.url",
                    "must be a JDBC URL starting with 'jdbc:'. Fix: e.g. jdbc:postgresql://host:5432/db");
        }
        if (database.poolSize != null && database.poolSize < 1) {
            errors.rejectValue(path + ".pool-size", "atomicshards.shard.pool-size",
                    "must be at least 1. Fix: a positive pool size, or leave it out for the default");
        }
    }

    /** A database the application connects to: a shard's primary or one of its replicas. */
    public abstract static class Database {

        /** JDBC URL of the database. */
        private String url;

        /** Database user; a replica's default: its shard's. */
        private String username;

        /** Database password; never logged. */
        private String password;

        /** Maximum size of its pool; default: the pool default (a replica's: its shard's). */
        private Integer poolSize;

        public String getUrl() {
            return url;
        }

        public void setUrl(String url) {
            this.url = url;
        }

        public String getUsername() {
            return username;
        }

        public void setUsername(String username) {
            this.username = username;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }

        public Integer getPoolSize() {
            return poolSize;
        }

        public void setPoolSize(Integer poolSize) {
            this.poolSize = poolSize;
        }
    }

    /** One physical shard. */
    public static class Shard extends Database {

        /** Shard id, e.g. {@code s0}; stable for the life of the catalog. */
        private String id;

        /** The shard's read replicas (PostgreSQL standbys, MariaDB replicas). */
        private List<Replica> replicas = new ArrayList<>();

        public String getId() {
            return id;
        }

        public void setId(String id) {
            this.id = id;
        }

        public List<Replica> getReplicas() {
            return replicas;
        }

        public void setReplicas(List<Replica> replicas) {
            this.replicas = replicas;
        }
    }

    /**
     * One read replica of a shard, named {@code r1}, {@code r2}, ... in list order; user, password and pool size
     * default to the shard's.
     */
    public static class Replica extends Database {
    }

    /** Which reads use the shards' replicas. */
    public static class Replicas {

        /** Whether read-only work ({@code @Transactional(readOnly = true)}, read-only sessions) reads from replicas. */
        private boolean readOnlyWork;

        /** The most a replica may lag its primary for a read to use it. */
        private Duration maxLag = Duration.ofSeconds(1);

        /** Whether a thread's replica reads of a shard wait for the writes it committed there. */
        private boolean readYourWrites;

        /** How long such a read waits for a replica to replay them before it reads the primary. */
        private Duration readYourWritesWait = Duration.ofMillis(100);

        public boolean isReadYourWrites() {
            return readYourWrites;
        }

        public void setReadYourWrites(boolean readYourWrites) {
            this.readYourWrites = readYourWrites;
        }

        public Duration getReadYourWritesWait() {
            return readYourWritesWait;
        }

        public void setReadYourWritesWait(Duration readYourWritesWait) {
            this.readYourWritesWait = readYourWritesWait;
        }

        public boolean isReadOnlyWork() {
            return readOnlyWork;
        }

        public void setReadOnlyWork(boolean readOnlyWork) {
            this.readOnlyWork = readOnlyWork;
        }

        public Duration getMaxLag() {
            return maxLag;
        }

        public void setMaxLag(Duration maxLag) {
            this.maxLag = maxLag;
        }
    }

    /** The catalog database holding the shard directory. */
    public static class Catalog {

        /** JDBC URL of the catalog; default: an embedded H2 file in the working directory. */
        private String url;

        private String username;

        /** Never logged. */
        private String password;

        /**
         * {@code create} (default: create or upgrade the catalog's tables under the catalog's lock) or
         * {@code validate} (no DDL; the tables come from the scripts in the jar run by Flyway or Liquibase).
         */
        private String schema;

        /** How long an operation waits for a catalog connection before the catalog is reported unavailable. */
        private Duration connectionTimeout;

        /** How long a booting instance waits while another instance initialises the catalog or a shard's schema. */
        private Duration lockTimeout;

        /**
         * How often this instance re-reads the topology (map, shards added or retired, ring members) from the
         * catalog; {@code 0} never; default 5s.
         */
        private Duration refreshInterval;

        /**
         * Declares a single-instance deployment that keeps the default embedded catalog although the shards are server
         * databases (refused otherwise, since every instance would get a private catalog).
         */
        private boolean singleInstance;

        public String getSchema() {
            return schema;
        }

        public void setSchema(String schema) {
            this.schema = schema;
        }

        public Duration getConnectionTimeout() {
            return connectionTimeout;
        }

        public void setConnectionTimeout(Duration connectionTimeout) {
            this.connectionTimeout = connectionTimeout;
        }

        public Duration getLockTimeout() {
            return lockTimeout;
        }

        public void setLockTimeout(Duration lockTimeout) {
            this.lockTimeout = lockTimeout;
        }

        public Duration getRefreshInterval() {
            return refreshInterval;
        }

        public void setRefreshInterval(Duration refreshInterval) {
            this.refreshInterval = refreshInterval;
        }

        public boolean isSingleInstance() {
            return singleInstance;
        }

        public void setSingleInstance(boolean singleInstance) {
            this.singleInstance = singleInstance;
        }

        public String getUrl() {
            return url;
        }

        public void setUrl(String url) {
            this.url = url;
        }

        public String getUsername() {
            return username;
        }

        public void setUsername(String username) {
            this.username = username;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }
    }

    /** Bounds of the shard pools (one HikariCP pool per shard). */
    public static class Pool {

        /** Default maximum size of each shard's pool; default: max-total / shards, rounded down. */
        private Integer size;

        /** Bound on connections over all shard pools; default max(64, 2 x shards). */
        private Integer maxTotal;

        /** How long to wait for a connection before the shard is reported unavailable; default 5s. */
        private Duration connectionTimeout;

        /**
         * How long the JDBC driver waits for an answer on a connection's socket before giving the connection up;
         * default: the longer of the transaction and fan-out timeouts, plus 1s.
         */
        private Duration socketTimeout;

        /** Idle connections each shard's pool keeps open; default 1 up to 32 shards, 0 above. */
        private Integer minIdle;

        /**
         * How long a connection beyond min-idle may stay idle before it is closed (10s to 29m59s); default 10m up to
         * 32 shards, 1m above.
         */
        private Duration idleTimeout;

        public Integer getMinIdle() {
            return minIdle;
        }

        public void setMinIdle(Integer minIdle) {
            this.minIdle = minIdle;
        }

        public Duration getIdleTimeout() {
            return idleTimeout;
        }

        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        public Integer getSize() {
            return size;
        }

        public void setSize(Integer size) {
            this.size = size;
        }

        public Integer getMaxTotal() {
            return maxTotal;
        }

        public void setMaxTotal(Integer maxTotal) {
            this.maxTotal = maxTotal;
        }

        public Duration getConnectionTimeout() {
            return connectionTimeout;
        }

        public void setConnectionTimeout(Duration connectionTimeout) {
            this.connectionTimeout = connectionTimeout;
        }

        public Duration getSocketTimeout() {
            return socketTimeout;
        }

        public void setSocketTimeout(Duration socketTimeout) {
            this.socketTimeout = socketTimeout;
        }
    }

    /** How queries that name no shard key run across shards. */
    public static class FanOut {

        /** Threads of the fan-out executor. */
        private int parallelism = 8;

        /** Time a whole fan-out may take, counted from the call. */
        private Duration timeout = Duration.ofSeconds(30);

        /** COMPLETE (every shard must answer) or PARTIAL. */
        private ExecutionPolicy policy = ExecutionPolicy.COMPLETE;

        /** Rows per round trip from each shard when streaming. */
        private int fetchSize = 256;

        /** Whether fan-outs read from the shards' replicas (each within the maximum lag, else the primary). */
        private boolean replicas;

        public boolean isReplicas() {
            return replicas;
        }

        public void setReplicas(boolean replicas) {
            this.replicas = replicas;
        }

        public int getParallelism() {
            return parallelism;
        }

        public void setParallelism(int parallelism) {
            this.parallelism = parallelism;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        public ExecutionPolicy getPolicy() {
            return policy;
        }

        public void setPolicy(ExecutionPolicy policy) {
            this.policy = policy;
        }

        public int getFetchSize() {
            return fetchSize;
        }

        public void setFetchSize(int fetchSize) {
            this.fetchSize = fetchSize;
        }
    }

    /** The policy of one atomic unit. */
    public static class Unit {

        /**
         * The selection policy's name: {@code hash} (default), {@code modulo}, {@code range},
         * {@code consistent-hash}, {@code lookup}, {@code round-robin}, {@code snowflake}, or one registered in
         * {@code META-INF/services/org.atomicshards.hibernate.spi.SelectionPolicy}.
         */
        private String policy;

        /** How new root keys are made; default: the policy's or the id annotation's. */
        private KeyGeneration keyGeneration;

        /** How shards are asked when a lookup must ask all of them. */
        private Access access;

        /** How the answers of several shards combine. */
        private Combine combine;

        /** Key ranges for policy RANGE: {@code <from>-<to>=<virtual shard>,...}. */
        private String ranges;

        /** Ring nodes per shard for policy CONSISTENT_HASH. */
        private Integer ringNodes;

        /** Options of a selection policy that has no property of its own here (e.g. a registered one). */
        private Map<String, String> options = new LinkedHashMap<>();

        public String getPolicy() {
            return policy;
        }

        public void setPolicy(String policy) {
            this.policy = policy;
        }

        public Map<String, String> getOptions() {
            return options;
        }

        public void setOptions(Map<String, String> options) {
            this.options = options;
        }

        public KeyGeneration getKeyGeneration() {
            return keyGeneration;
        }

        public void setKeyGeneration(KeyGeneration keyGeneration) {
            this.keyGeneration = keyGeneration;
        }

        public Access getAccess() {
            return access;
        }

        public void setAccess(Access access) {
            this.access = access;
        }

        public Combine getCombine() {
            return combine;
        }

        public void setCombine(Combine combine) {
            this.combine = combine;
        }

        public String getRanges() {
            return ranges;
        }

        public void setRanges(String ranges) {
            this.ranges = ranges;
        }

        public Integer getRingNodes() {
            return ringNodes;
        }

        public void setRingNodes(Integer ringNodes) {
            this.ringNodes = ringNodes;
        }
    }
}
