package org.atomicshards.benchmarks.support;

import java.time.Duration;

import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.MySQLDialect;
import org.hibernate.dialect.PostgreSQLDialect;

/**
 * Where a benchmark's databases live: in-memory H2 in the benchmark's JVM (the default suite, nothing to install),
 * or a PostgreSQL server ({@link PostgresShards}; the {@code pg-} suite groups).
 */
public enum Backend {

    H2 {
        @Override
        public ShardDatabases create(String scenario, int count, boolean forShardingSphere, boolean poolAutoCommit,
                                     int poolSize) {
            return H2Shards.create(scenario, count, forShardingSphere ? H2Mode.MYSQL : H2Mode.NATIVE, false,
                    Duration.ZERO, poolAutoCommit);
        }

        @Override
        public ShardDatabases createWithoutPools(String scenario, int count) {
            return H2Shards.createUnpooled(scenario, count);
        }

        @Override
        public Class<? extends Dialect> shardingSphereDialect() {
            return MySQLDialect.class;
        }
    },

    POSTGRESQL {
        @Override
        public ShardDatabases create(String scenario, int count, boolean forShardingSphere, boolean poolAutoCommit,
                                     int poolSize) {
            return PostgresShards.create(scenario, count, poolSize, poolAutoCommit);
        }

        @Override
        public ShardDatabases createWithoutPools(String scenario, int count) {
            return PostgresShards.createUnpooled(scenario, count);
        }

        @Override
        public Class<? extends Dialect> shardingSphereDialect() {
            return PostgreSQLDialect.class;
        }
    };

    /**
     * Creates {@code count} empty databases with the schema and a pool each.
     *
     * @param forShardingSphere whether ShardingSphere will sit on them (H2 then runs in MySQL mode, see
     *                          {@link H2Mode#MYSQL})
     * @param poolSize          the pools' maximum size where the backend lets a benchmark choose it (H2's pools are
     *                          always {@link H2Shards#POOL_SIZE})
     */
    public abstract ShardDatabases create(String scenario, int count, boolean forShardingSphere,
                                          boolean poolAutoCommit, int poolSize);

    /**
     * Creates {@code count} empty databases with the schema and no pools ({@link ShardDatabases#pool} is not
     * available): for a side that opens its own pools, as Atomic Shards does, so that no idle pool of the benchmark's
     * sits beside them.
     */
    public abstract ShardDatabases createWithoutPools(String scenario, int count);

    /** The dialect Hibernate speaks through ShardingSphere on this backend (ShardingSphere parses H2 as MySQL). */
    public abstract Class<? extends Dialect> shardingSphereDialect();
}
