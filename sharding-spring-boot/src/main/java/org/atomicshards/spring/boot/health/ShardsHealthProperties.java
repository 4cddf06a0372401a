package org.atomicshards.spring.boot.health;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code atomicshards.health.*}: when the shards' health makes the application DOWN. By default a down shard or an
 * unreachable catalog shows in the details and the status stays UP while at least one shard answers: units of work
 * on the other shards keep running, and a load balancer should not take every instance out because one database is
 * away. Set {@code require-all-shards} where any missing shard means the application is of no use.
 */
@ConfigurationProperties(prefix = "atomicshards.health")
public class ShardsHealthProperties {

    /** DOWN as soon as one shard does not answer (default: only when none answers). */
    private boolean requireAllShards;

    /** DOWN when the catalog (the shard directory and the resharding journal) cannot be read. */
    private boolean requireCatalog;

    /** How long the health check waits for the shards and the catalog; a part not answering by then is DOWN. */
    private Duration timeout = Duration.ofSeconds(2);

    public boolean isRequireAllShards() {
        return requireAllShards;
    }

    public void setRequireAllShards(boolean requireAllShards) {
        this.requireAllShards = requireAllShards;
    }

    public boolean isRequireCatalog() {
        return requireCatalog;
    }

    public void setRequireCatalog(boolean requireCatalog) {
        this.requireCatalog = requireCatalog;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("atomicshards.health.timeout must be positive, e.g. 2s; got " + timeout);
        }
        this.timeout = timeout;
    }
}
