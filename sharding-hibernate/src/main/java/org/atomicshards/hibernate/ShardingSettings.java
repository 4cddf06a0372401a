package org.atomicshards.hibernate;

/**
 * The names of Atomic Shards' configuration properties. They are ordinary Hibernate settings: pass them in
 * {@code persistence.xml}, Spring's {@code spring.jpa.properties.*}, a {@code hibernate.properties} file, or let
 * {@link ShardedSessionFactoryBuilder} write them for you. Every setting is validated when the factory boots; an
 * error names the setting, the value and the fix.
 *
 * <p>Per-shard and per-unit settings embed the shard id or the unit's root entity name (simple name or fully
 * qualified class name), e.g. {@code atomicshards.shard.s0.url} or {@code atomicshards.unit.User.policy}.
 */
public final class ShardingSettings {

    /** Comma-separated physical shard ids, in topology order, e.g. {@code s0,s1,s2,s3}. Required. */
    public static final String SHARDS = "atomicshards.shards";

    /** Prefix of the per-shard settings {@code url} (required), {@code user}, {@code password}, {@code pool_size}. */
    public static final String SHARD_PREFIX = "atomicshards.shard.";

    /** Number of virtual shards (1 to 1,048,576); default {@value #DEFAULT_VIRTUAL_SHARDS}. Fixed for the catalog's life. */
    public static final String VIRTUAL_SHARDS = "atomicshards.virtual_shards";

    /** Default virtual shard count. */
    public static final int DEFAULT_VIRTUAL_SHARDS = 1024;

    /**
     * The initial virtual→physical map as ranges, e.g. {@code 0-511=s0,512-1023=s1}. Default: an even contiguous
     * split in topology order. Only used when the catalog holds no map yet; afterwards the catalog's map wins.
     */
    public static final String VIRTUAL_SHARD_MAP = "atomicshards.virtual_shard_map";

    /** Default maximum pool size of each shard's pool; default: {@code max_total / shards}, rounded down. */
    public static final String POOL_SIZE = "atomicshards.pool.size";

    /**
     * Bound on the total number of JDBC connections over all shard pools; default
     * {@link #defaultMaxTotal(int) max(64, 2 x shards)}, so the default configuration is valid for any shard count
     * and gives every shard at least 2 connections.
     */
    public static final String POOL_MAX_TOTAL = "atomicshards.pool.max_total";

    /** Smallest default bound on total connections (the default for up to 32 shards). */
    public static final int DEFAULT_MAX_TOTAL = 64;

    /** The default of {@link #POOL_MAX_TOTAL} for {@code shards} shards: {@code max(64, 2 x shards)}. */
    public static int defaultMaxTotal(int shards) {
        return Math.max(DEFAULT_MAX_TOTAL, 2 * shards);
    }

    /**
     * Idle connections each shard's pool keeps open once it has started (HikariCP's {@code minimumIdle}), from 0 to
     * the shard's pool size; default {@link #defaultMinIdle(int) 1 for up to 32 shards, 0 above}, so that a factory
     * over many shards does not hold a connection to every shard it has ever used. A pool started with 0 opens a
     * connection when a unit of work or fan-out needs one.
     */
    public static final String POOL_MIN_IDLE = "atomicshards.pool.min_idle";

    /**
     * Milliseconds a connection beyond {@link #POOL_MIN_IDLE} may stay idle in a shard's pool before it is closed
     * (HikariCP's {@code idleTimeout}; HikariCP checks about every 30 s), from 10000 (HikariCP's minimum) to 1799000
     * (below a connection's 30-minute maximum lifetime); default {@link #defaultIdleTimeoutMillis(int) 600000 for up
     * to 32 shards, 60000 above}.
     */
    public static final String POOL_IDLE_TIMEOUT = "atomicshards.pool.idle_timeout_ms";

    /** Above this many configured shards, the pools' idle defaults keep fewer connections open. */
    public static final int MANY_SHARDS = 32;

    /** The default of {@link #POOL_MIN_IDLE} for {@code shards} configured shards: 1 up to 32 shards, 0 above. */
    public static int defaultMinIdle(int shards) {
        return shards > MANY_SHARDS ? 0 : 1;
    }

    /**
     * The default of {@link #POOL_IDLE_TIMEOUT} for {@code shards} configured shards: HikariCP's 10 minutes up to 32
     * shards, 1 minute above.
     */
    public static long defaultIdleTimeoutMillis(int shards) {
        return shards > MANY_SHARDS ? 60_000 : 600_000;
    }

    /**
     * Milliseconds to wait for a connection before the shard is reported unavailable (at least 250); default 5000.
     * Also bounds the check of an idle connection before it is handed out (HikariCP's {@code validationTimeout}, set
     * to half of this) and is the driver's connect and login timeout ({@code connectTimeout} / {@code loginTimeout}
     * on PostgreSQL, {@code connectTimeout} on MariaDB) unless the shard's URL sets them.
     */
    public static final String POOL_CONNECTION_TIMEOUT = "atomicshards.pool.connection_timeout_ms";

    /**
     * Milliseconds a unit of work's transaction may last (at least 1000); default 30000. At the deadline (checked
     * every twentieth of it, at most every 100 ms) the unit's connection is aborted, so a statement it waits for
     * fails at once, even on a silent network, and a unit that reaches its commit late is rolled back; the unit then
     * fails with a {@link ShardUnavailableException} naming the shard (nothing is committed). A commit that has
     * started is bounded by {@link #POOL_SOCKET_TIMEOUT} instead. No per-statement query timeout is set.
     */
    public static final String TRANSACTION_TIMEOUT = "atomicshards.transaction_timeout_ms";

    /**
     * Milliseconds the JDBC driver waits for the database to answer on a connection's socket before it gives the
     * connection up (at least 1000): the backstop when a statement cannot even be cancelled because the network is
     * silent. Default: the longer of {@link #TRANSACTION_TIMEOUT} and the fan-out timeout
     * ({@code atomicshards.fanout.timeout_ms}), plus one second. Applied as the driver property
     * ({@code socketTimeout} on PostgreSQL and MariaDB) unless the shard's URL sets it; H2 has none.
     */
    public static final String POOL_SOCKET_TIMEOUT = "atomicshards.pool.socket_timeout_ms";

    /**
     * A {@code com.zaxxer.hikari.metrics.MetricsTrackerFactory} instance given to every shard pool (e.g. HikariCP's
     * {@code MicrometerMetricsTrackerFactory}), so each pool reports its metrics under its own pool name
     * {@code atomicshards-<factory>-<shard>}. Only an instance is accepted (not a class name); default: none.
     */
    public static final String POOL_METRICS_TRACKER_FACTORY = "atomicshards.pool.metrics_tracker_factory";

    /**
     * A Micrometer {@code io.micrometer.core.instrument.MeterRegistry} (an object, not a name) the factory records
     * its meters in: {@code atomicshards.unit_of_work}, {@code atomicshards.fanout}, {@code atomicshards.fanout.shard},
     * {@code atomicshards.guard.rejections}, {@code atomicshards.id_routing.probes}. Unset: no meters, and no
     * Micrometer class is loaded. The Spring Boot auto-configuration sets it when a {@code MeterRegistry} bean exists.
     */
    public static final String METER_REGISTRY = "atomicshards.metrics.meter_registry";

    /**
     * Whether reads and writes are counted per virtual shard, and the hottest keys sampled, for
     * {@link ShardedSessionFactory#hotSpots()}: {@code true} (default) or {@code false}.
     */
    public static final String HOT_SPOTS_ENABLED = "atomicshards.hot_spots.enabled";

    /**
     * JDBC URL of the catalog database holding the shard directory, the one piece of state every instance of an
     * application must share; default {@value #DEFAULT_CATALOG_URL}, which is refused when a shard is a server
     * database unless {@link #CATALOG_SINGLE_INSTANCE} is set.
     */
    public static final String CATALOG_URL = "atomicshards.catalog.url";

    /** Default catalog: an embedded H2 file in the working directory. */
    public static final String DEFAULT_CATALOG_URL = "jdbc:h2:file:./atomicshards-catalog;AUTO_SERVER=TRUE";

    /** Catalog database user. */
    public static final String CATALOG_USER = "atomicshards.catalog.user";

    /** Catalog database password (never logged). */
    public static final String CATALOG_PASSWORD = "atomicshards.catalog.password";

    /**
     * What the library does to the catalog's tables at boot: {@code create} (default: create a new catalog or upgrade
     * an older one with the scripts in the jar, {@code META-INF/atomic-shards/catalog/<h2|postgresql|mariadb>/V<n>__*.sql},
     * under the catalog's lock) or {@code validate} (run no DDL; fail naming the missing table or column and the
     * script that creates it — the production choice when the scripts run as Flyway or Liquibase migrations).
     */
    public static final String CATALOG_SCHEMA = "atomicshards.catalog.schema";

    /**
     * Milliseconds an operation waits for a catalog connection before failing with a
     * {@link CatalogUnavailableException} (at least 250); also bounds the first connection at boot; default 5000.
     */
    public static final String CATALOG_CONNECTION_TIMEOUT = "atomicshards.catalog.connection_timeout_ms";

    /**
     * Milliseconds a booting instance waits for the catalog's lock (or a shard's schema lock) while another instance
     * initialises the catalog or runs a schema action; default 60000.
     */
    public static final String CATALOG_LOCK_TIMEOUT = "atomicshards.catalog.lock_timeout_ms";

    /**
     * Milliseconds between two refreshes of this instance's topology from the catalog: the virtual shard map, the
     * shards added or retired by other instances and the consistent-hash ring members. 0 never refreshes (only
     * for a single instance); otherwise at least 100; default 5000.
     */
    public static final String CATALOG_REFRESH_INTERVAL = "atomicshards.catalog.refresh_interval_ms";

    /**
     * Set to {@code true} to declare a single-instance deployment that keeps the default embedded catalog
     * ({@value #DEFAULT_CATALOG_URL}) although its shards are server databases. Without it such a configuration
     * fails the boot: every instance would get a private catalog and place units and hand out ids on its own.
     * Default {@code false}; not needed when the shards are embedded H2 databases or a catalog URL is set.
     */
    public static final String CATALOG_SINGLE_INSTANCE = "atomicshards.catalog.single_instance";

    /**
     * Prefix of the per-unit settings {@code policy} (the name of a selection policy: {@code hash} by default,
     * {@code modulo}, {@code range}, {@code consistent_hash}, {@code lookup}, {@code round_robin}, {@code snowflake} or
     * a registered one), {@code key_generation}, {@code access}, {@code combine}, and the selection policy's own
     * options ({@code ranges} for {@code range}, {@code ring_nodes} for {@code consistent_hash}). A unit setting
     * that its policy does not understand fails the boot.
     */
    public static final String UNIT_PREFIX = "atomicshards.unit.";

    /**
     * Selection policies to register besides the built-ins and those listed in
     * {@code META-INF/services/org.atomicshards.hibernate.spi.SelectionPolicy}: comma-separated class names (each
     * with a public no-argument constructor), or {@link org.atomicshards.hibernate.spi.SelectionPolicy} instances
     * (one, or a collection), as {@link ShardedSessionFactoryBuilder#selectionPolicy} writes them. Default: none.
     */
    public static final String SELECTION_POLICIES = "atomicshards.selection_policies";

    /** Shard used by sessions opened with no shard context (e.g. Spring Data's boot-time probe); default: none. */
    public static final String DEFAULT_SHARD = "atomicshards.default_shard";

    /** Id bits of the Snowflake generator's worker (0-31), unique per running application instance; default 0. */
    public static final String SNOWFLAKE_WORKER = "atomicshards.snowflake.worker_id";

    /** Ids taken from the catalog per sequence block; default 1000. */
    public static final String SEQUENCE_BLOCK_SIZE = "atomicshards.sequence.block_size";

    /**
     * Whether the boot-time model check (the processor's rules run against Hibernate's metamodel) fails the boot on
     * an error; default {@code true}.
     */
    public static final String MODEL_CHECK = "atomicshards.model_check";

    /**
     * Whether the boot opens (and closes) one plain JDBC connection to every shard, so an unreachable shard fails the
     * boot with a {@link ShardUnavailableException} naming it instead of being found at first use (the shard pools
     * start lazily); default {@code true}.
     */
    public static final String BOOT_CONNECTION_CHECK = "atomicshards.boot_connection_check";

    /**
     * The tool that owns the application's schema on every shard: {@code none} (default: the schema action, if any,
     * is Hibernate's), {@code flyway} ({@code org.flywaydb:flyway-core} on the class path) or {@code liquibase}
     * ({@code org.liquibase:liquibase-core}). The application's migrations then run on every shard, one shard at a
     * time in topology order, at boot ({@link #MIGRATIONS_AT_BOOT}), with {@link ShardSchema#migrate()}, and on a shard
     * being added before it takes any unit. The catalog's own scripts are separate.
     */
    public static final String MIGRATIONS_TOOL = "atomicshards.migrations.tool";

    /** Flyway's locations of the application's migrations, comma-separated; default {@code classpath:db/migration}. */
    public static final String MIGRATIONS_LOCATIONS = "atomicshards.migrations.locations";

    /**
     * For Flyway: the version recorded as the baseline of a shard whose tables exist but that has no Flyway history
     * (tables made by Hibernate or by hand); only later migrations are applied there. Empty shards get every
     * migration. Default: none (Flyway refuses such a shard).
     */
    public static final String MIGRATIONS_BASELINE_VERSION = "atomicshards.migrations.baseline_version";

    /** Liquibase's change log of the application; default {@code db/changelog/db.changelog-master.yaml}. */
    public static final String MIGRATIONS_CHANGELOG = "atomicshards.migrations.changelog";

    /**
     * Whether the boot runs the application's migrations on every shard ({@link #MIGRATIONS_TOOL}) before the factory
     * is used; default {@code true}. The command-line tool never runs them at boot.
     */
    public static final String MIGRATIONS_AT_BOOT = "atomicshards.migrations.at_boot";

    private ShardingSettings() {
    }

    /**
     * How long a unit of work waits, at most, while its virtual shard is being switched to another shard by an online
     * move, before it fails with the retryable {@link ShardMovingException}; milliseconds, default
     * {@link #DEFAULT_RESHARDING_WRITE_PAUSE}.
     */
    public static final String RESHARDING_WRITE_PAUSE = "atomicshards.resharding.write_pause_ms";

    /**
     * Which stopped resharding operations this instance carries to completion on its own, in the background at each
     * topology refresh ({@link #CATALOG_REFRESH_INTERVAL}), as {@code ShardAdmin.resume()} would: those whose run
     * stopped, and those whose owner's lease lapsed (its process died); at most one at a time, and after a failure it
     * waits a minute. {@code after_switch} (default): those stopped with their batch frozen or past its switch, which
     * until they go on keep that batch's writes waiting (frozen, switched) or every fan-out failing (promoted, not
     * yet released); an instance takes back its own stopped runs at once, another's once their lease lapsed.
     * {@code true}: every one. {@code false}: only an explicit {@code resume} does (the default with
     * a refresh interval of 0).
     */
    public static final String RESHARDING_AUTO_RESUME = "atomicshards.resharding.auto_resume";

    /**
     * {@code true} (default): this instance's units of work skip the ownership fence's statements on connections that
     * hold a write lease, taken while no resharding operation involves their shard; an operation ends every leased
     * session on its shards before it changes ownership there. Needs {@link #CATALOG_REFRESH_INTERVAL} above 0 (an
     * instance that never refreshes could not give its leases back); with 0 the default is {@code false}. Only a
     * connection that reaches its database server directly leases: one through a pooler or proxy (PgBouncer in
     * transaction mode, say, whose server sessions a lease could not follow) is fenced, and the instance logs why once
     * per shard. {@code false}: every unit of work enters the fence. Operations honour other instances' leases either
     * way.
     */
    public static final String RESHARDING_CONNECTION_LEASE = "atomicshards.resharding.connection_lease";

    /**
     * How long an operation waits, after it armed a shard, for the instances holding leased connections there to give
     * them back (at their next refresh); milliseconds, default {@link #DEFAULT_RESHARDING_LEASE_GRACE}. Past it the
     * operation stops before it changes any ownership, naming the sessions still holding leases ({@code resume} tries
     * again), unless {@link #RESHARDING_END_LEASED_SESSIONS} lets it end them.
     */
    public static final String RESHARDING_LEASE_GRACE = "atomicshards.resharding.lease_grace_ms";

    /**
     * Set to {@code true} to let a resharding operation end, on the database, the sessions of other instances that
     * still hold write leases on its shards after {@link #RESHARDING_LEASE_GRACE} (their transactions roll back and
     * their units of work fail). Default {@code false}: the operation stops instead, before it changes any ownership.
     * Ending a session needs the right to: on PostgreSQL the instances' role (or {@code pg_signal_backend} with
     * {@code pg_read_all_stats}), on MariaDB the same user or {@code CONNECTION ADMIN}, on H2 an administrator.
     */
    public static final String RESHARDING_END_LEASED_SESSIONS = "atomicshards.resharding.end_leased_sessions";

    /** Default of {@link #RESHARDING_LEASE_GRACE}: three default refresh intervals. */
    public static final long DEFAULT_RESHARDING_LEASE_GRACE = 15_000;

    /**
     * Milliseconds for which a value of a {@link org.atomicshards.annotations.ShardIndex} taken by a unit of work that
     * has not committed is reserved for it (at least 2000; default {@link #DEFAULT_INDEX_CLAIM_TIMEOUT}). A unit of
     * work that took a value commits only within half of it (else it fails and commits nothing); a value whose unit
     * does not hold it is handed to another unit only after it, so a unit of work that crashed after taking a value
     * blocks that value for this long at most. Keep it above twice {@link #TRANSACTION_TIMEOUT}.
     */
    public static final String INDEX_CLAIM_TIMEOUT = "atomicshards.index.claim_timeout_ms";

    /** Default of {@link #INDEX_CLAIM_TIMEOUT}: two minutes. */
    public static final long DEFAULT_INDEX_CLAIM_TIMEOUT = 120_000;

    /** Default of {@link #RESHARDING_WRITE_PAUSE}. */
    public static final long DEFAULT_RESHARDING_WRITE_PAUSE = 5_000;

    /**
     * Prefix of a shard's read replicas: {@code atomicshards.shard.<shard>.replica.<name>.url} (required per
     * replica), {@code .user}, {@code .password} (default: the shard's own) and {@code .pool_size} (default: the
     * shard's). A replica is a PostgreSQL streaming standby or a MariaDB replica of the shard's primary. Naming
     * replicas changes nothing by itself: reads go to them only where {@link #REPLICA_READS} or a fan-out's
     * {@link FanOutSettings#replicas()} asks.
     */
    public static final String REPLICA_INFIX = ".replica.";

    /**
     * Set to {@code true} to send read-only work to the shards' replicas: {@code openReadOnlySession}, read-only units
     * of work ({@code readInUnit}) and Spring's {@code @Transactional(readOnly = true)}. A replica is used only while
     * its lag, read on the replica before each read, is within {@link #REPLICA_MAX_LAG}; otherwise another replica or
     * the primary answers. Default {@code false}: every read goes to the primary.
     */
    public static final String REPLICA_READS = "atomicshards.replicas.read_only_work";

    /**
     * The most a replica may lag its primary, in milliseconds, for a read to use it (default
     * {@link #DEFAULT_REPLICA_MAX_LAG}). PostgreSQL: 0 when the standby has replayed all the WAL it received while
     * streaming, else the age of the last transaction it replayed; MariaDB: {@code Seconds_Behind_Master}.
     */
    public static final String REPLICA_MAX_LAG = "atomicshards.replicas.max_lag_ms";

    /** Default of {@link #REPLICA_MAX_LAG}: one second. */
    public static final long DEFAULT_REPLICA_MAX_LAG = 1_000;

    /**
     * Set to {@code true} for read-your-writes on replicas: once a transaction that wrote on a shard commits, the
     * committing thread's later replica reads of that shard (read-only sessions and units of work, fan-outs) use a
     * replica only once it has replayed the write (PostgreSQL: the primary's WAL position after the commit; MariaDB:
     * its GTID position, with {@code MASTER_GTID_WAIT}), waiting up to {@link #REPLICA_READ_YOUR_WRITES_WAIT}, else the
     * primary answers. Costs one statement on the primary after each committed write. Default {@code false}.
     */
    public static final String REPLICA_READ_YOUR_WRITES = "atomicshards.replicas.read_your_writes";

    /** Milliseconds a read waits for a replica to replay the thread's writes (default 100). */
    public static final String REPLICA_READ_YOUR_WRITES_WAIT = "atomicshards.replicas.read_your_writes_wait_ms";

    /** Default of {@link #REPLICA_READ_YOUR_WRITES_WAIT}. */
    public static final long DEFAULT_REPLICA_READ_YOUR_WRITES_WAIT = 100;
}
