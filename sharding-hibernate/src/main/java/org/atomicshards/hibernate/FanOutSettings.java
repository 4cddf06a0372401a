package org.atomicshards.hibernate;

import java.time.Duration;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * How fan-out queries run: the executor, the defaults for timeout and policy, the fetch size, and how strings
 * compare when shards' ordered results are merged. Immutable; build with {@link #builder()}.
 *
 * <p>Invalid values fail in {@link Builder#build()} with an {@link IllegalArgumentException} naming the setting,
 * the value and the fix.
 */
public final class FanOutSettings {

    /** Property holding a {@code FanOutSettings} instance (takes precedence over the individual properties). */
    public static final String SETTINGS = "atomicshards.fanout.settings";

    /** Threads of the fan-out executor; default 8. */
    public static final String PARALLELISM = "atomicshards.fanout.parallelism";

    /** {@code PARALLEL} or {@code SEQUENTIAL}; default {@code PARALLEL}. */
    public static final String ACCESS = "atomicshards.fanout.access";

    /** Milliseconds a whole fan-out may take, counted from the call; default 30000. */
    public static final String TIMEOUT_MS = "atomicshards.fanout.timeout_ms";

    /** {@code COMPLETE} or {@code PARTIAL}; default {@code COMPLETE}. */
    public static final String POLICY = "atomicshards.fanout.policy";

    /** Rows per round trip and per-shard buffer while streaming; default 256. */
    public static final String FETCH_SIZE = "atomicshards.fanout.fetch_size";

    /** Property: {@code true} to read fan-outs from the shards' replicas ({@link #replicas()}); default false. */
    public static final String REPLICAS = "atomicshards.fanout.replicas";

    private final int parallelism;
    private final ShardAccess access;
    private final Duration timeout;
    private final ExecutionPolicy policy;
    private final int fetchSize;
    private final Comparator<String> stringOrder;
    private final boolean stringOrderDeclared;
    private final ExecutorService executor;
    private final boolean replicas;

    private FanOutSettings(Builder builder) {
        this.replicas = builder.replicas;
        this.parallelism = builder.parallelism;
        this.access = builder.access;
        this.timeout = builder.timeout;
        this.policy = builder.policy;
        this.fetchSize = builder.fetchSize;
        this.stringOrder = builder.stringOrder;
        this.stringOrderDeclared = builder.stringOrderDeclared;
        this.executor = builder.executor;
    }

    /** The defaults: parallel on 8 threads, 30 s per fan-out, COMPLETE, fetch size 256, binary string order. */
    public static FanOutSettings defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The settings given as properties (a {@link #SETTINGS} instance, or {@link #PARALLELISM}, {@link #ACCESS},
     * {@link #TIMEOUT_MS}, {@link #POLICY}, {@link #FETCH_SIZE}); the defaults for those absent.
     *
     * @throws IllegalArgumentException naming the property, the value and the fix when a value is invalid
     */
    public static FanOutSettings fromProperties(java.util.Map<String, ?> properties) {
        if (properties.get(SETTINGS) instanceof FanOutSettings settings) {
            return settings;
        }
        Builder builder = builder();
        Object parallelism = properties.get(PARALLELISM);
        if (parallelism != null) {
            builder.parallelism(integer(PARALLELISM, parallelism));
        }
        Object access = properties.get(ACCESS);
        if (access != null) {
            builder.access(constant(ShardAccess.class, ACCESS, access));
        }
        Object timeout = properties.get(TIMEOUT_MS);
        if (timeout != null) {
            builder.timeout(Duration.ofMillis(integer(TIMEOUT_MS, timeout)));
        }
        Object policy = properties.get(POLICY);
        if (policy != null) {
            builder.policy(constant(ExecutionPolicy.class, POLICY, policy));
        }
        Object fetchSize = properties.get(FETCH_SIZE);
        if (fetchSize != null) {
            builder.fetchSize(integer(FETCH_SIZE, fetchSize));
        }
        Object replicas = properties.get(REPLICAS);
        if (replicas != null) {
            String text = String.valueOf(replicas).trim();
            if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                throw new IllegalArgumentException("Invalid fan-out setting " + REPLICAS + "=" + replicas
                        + ": use true or false");
            }
            builder.replicas(Boolean.parseBoolean(text));
        }
        try {
            return builder.build();
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (set by the properties atomicshards.fanout.*: "
                    + PARALLELISM + ", " + ACCESS + ", " + TIMEOUT_MS + ", " + POLICY + ", " + FETCH_SIZE + ")", e);
        }
    }

    private static int integer(String name, Object value) {
        try {
            return Integer.parseInt(String.valueOf(value).trim());
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid fan-out setting " + name + "=" + value
                    + ": use a whole number", e);
        }
    }

    private static <E extends Enum<E>> E constant(Class<E> type, String name, Object value) {
        try {
            return Enum.valueOf(type, String.valueOf(value).trim().toUpperCase(java.util.Locale.ROOT));
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid fan-out setting " + name + "=" + value + ": use one of "
                    + java.util.Arrays.toString(type.getEnumConstants()), e);
        }
    }

    /**
     * Whether each shard's part of a fan-out reads from one of the shard's replicas (one within the maximum lag,
     * {@link ShardingSettings#REPLICA_MAX_LAG}, asked before the read) rather than its primary; a shard without a fit
     * replica answers from its primary. The answer is checked as on primaries: every unit once, none missing, even
     * while units move. Default false.
     */
    public boolean replicas() {
        return replicas;
    }

    /** Threads of the executor the fan-out engine creates (ignored when an {@link #executor()} is given). */
    public int parallelism() {
        return parallelism;
    }

    public ShardAccess access() {
        return access;
    }

    /** The default time a whole fan-out may take, counted from the call; a query may set its own. */
    public Duration timeout() {
        return timeout;
    }

    /** The default execution policy; a query may set its own. */
    public ExecutionPolicy policy() {
        return policy;
    }

    /** Rows fetched per round trip from each shard; also the bound on rows buffered per shard while streaming. */
    public int fetchSize() {
        return fetchSize;
    }

    /**
     * How the merge orders strings (ORDER BY, MIN/MAX and HAVING comparisons on strings), when declared. By default
     * (not declared) the merge reads each target shard's collation on the first fan-out that compares strings and
     * uses that collation's binary order: code points for PostgreSQL {@code C}/{@code POSIX}/{@code C.UTF-8} and
     * MariaDB {@code *_bin} (with trailing spaces ignored under a PAD SPACE collation such as {@code utf8mb4_bin}),
     * UTF-16 code units ({@link Comparator#naturalOrder()}) for H2. Under any other collation, or when the targets'
     * binary orders differ, such a query fails with {@link UnsupportedStringCollationException} rather than return
     * a different order than one database would.
     *
     * <p>Configuring a comparator with {@link Builder#stringOrder} declares that it orders strings exactly as the
     * shards' collation does (for example a {@link java.text.Collator} for the database's locale); the merge then
     * uses it without checking the collation. Whether it truly agrees is the application's responsibility. It does
     * not make GROUP BY or DISTINCT on strings mergeable under a collation that treats different strings as equal
     * (case- or accent-insensitive): those are refused regardless.
     *
     * @return the declared order, or {@link Comparator#naturalOrder()} when none is declared (then used only for
     *         queries whose merge compares no strings)
     */
    public Comparator<String> stringOrder() {
        return stringOrder;
    }

    /** Whether the application configured {@link #stringOrder()} (declaring that it matches the shards). */
    public boolean stringOrderDeclared() {
        return stringOrderDeclared;
    }

    /** An executor supplied by the application (not shut down by Atomic Shards), if any. */
    public Optional<ExecutorService> executor() {
        return Optional.ofNullable(executor);
    }

    @Override
    public String toString() {
        return "FanOutSettings[parallelism=" + parallelism + ", access=" + access + ", timeout=" + timeout
                + ", policy=" + policy + ", fetchSize=" + fetchSize + ", stringOrder="
                + (stringOrderDeclared ? "declared" : "shards' binary collation") + ", executor="
                + (executor == null ? "own" : "supplied") + ", replicas=" + replicas + "]";
    }

    /** Builder; every setter validates on {@link #build()}. */
    public static final class Builder {

        private int parallelism = 8;
        private ShardAccess access = ShardAccess.PARALLEL;
        private Duration timeout = Duration.ofSeconds(30);
        private ExecutionPolicy policy = ExecutionPolicy.COMPLETE;
        private int fetchSize = 256;
        private Comparator<String> stringOrder = Comparator.naturalOrder();
        private boolean stringOrderDeclared;
        private ExecutorService executor;
        private boolean replicas;

        private Builder() {
        }

        /** Read from the shards' replicas ({@link FanOutSettings#replicas()}). */
        public Builder replicas(boolean fromReplicas) {
            this.replicas = fromReplicas;
            return this;
        }

        public Builder parallelism(int threads) {
            this.parallelism = threads;
            return this;
        }

        public Builder access(ShardAccess access) {
            this.access = access;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Builder policy(ExecutionPolicy policy) {
            this.policy = policy;
            return this;
        }

        public Builder fetchSize(int rows) {
            this.fetchSize = rows;
            return this;
        }

        /**
         * Declares how the shards' collation orders strings; the merge then orders strings with this comparator
         * and no longer checks the shards' collation. See {@link FanOutSettings#stringOrder()}.
         */
        public Builder stringOrder(Comparator<String> order) {
            this.stringOrder = order;
            this.stringOrderDeclared = true;
            return this;
        }

        /** Use the application's executor instead of creating one; it is never shut down by Atomic Shards. */
        public Builder executor(ExecutorService executor) {
            this.executor = executor;
            return this;
        }

        public FanOutSettings build() {
            if (parallelism < 1 || parallelism > 1024) {
                throw new IllegalArgumentException("Invalid fan-out setting parallelism=" + parallelism
                        + ": use 1 to 1024 threads (typically the number of shards, or fewer to bound load)");
            }
            if (fetchSize < 1) {
                throw new IllegalArgumentException("Invalid fan-out setting fetchSize=" + fetchSize
                        + ": use a positive number of rows (for example 256)");
            }
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("Invalid fan-out setting timeout=" + timeout
                        + ": use a positive duration (for example Duration.ofSeconds(30))");
            }
            Objects.requireNonNull(access, "fan-out setting access: use ShardAccess.PARALLEL or SEQUENTIAL");
            Objects.requireNonNull(policy, "fan-out setting policy: use ExecutionPolicy.COMPLETE or PARTIAL");
            Objects.requireNonNull(stringOrder, "fan-out setting stringOrder: use Comparator.naturalOrder()");
            return new FanOutSettings(this);
        }
    }
}
