package org.atomicshards.hibernate.internal.config;

import java.util.Map;
import java.util.Optional;

import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.directory.CatalogOptions;

/**
 * Everything the settings say, validated and frozen.
 *
 * @param topology the physical shards and the proposed virtual map
 * @param maxTotalConnections bound on connections over all shard pools
 * @param connectionTimeoutMillis how long to wait for a connection before a shard is reported unavailable
 * @param catalogUrl JDBC URL of the catalog
 * @param catalogUser catalog user, may be null
 * @param catalogPassword catalog password, may be null; never logged
 * @param policies per-unit policies keyed by the name used in the settings (simple or qualified root class name)
 * @param defaultShard shard of sessions opened without a shard context, if any
 * @param snowflakeWorker the Snowflake worker id of this instance
 * @param sequenceBlockSize ids per sequence block
 * @param modelCheck whether model errors fail the boot
 * @param schemaAction the schema action to run on every shard at boot ("none" when absent)
 * @param bootConnectionCheck whether the boot connects once to every shard to prove it reachable
 * @param timeouts the limits on every wait for a shard's database
 * @param idleConnections what the shard pools keep open while idle
 * @param catalogOptions the catalog's schema action, connection timeout and boot lock timeout
 * @param replicas the shards' read replicas and which reads use them
 */
public record ShardingConfig(Topology topology, int maxTotalConnections, long connectionTimeoutMillis,
                             String catalogUrl, String catalogUser, String catalogPassword,
                             Map<String, Policy> policies, Optional<ShardId> defaultShard, int snowflakeWorker,
                             int sequenceBlockSize, boolean modelCheck, String schemaAction,
                             boolean bootConnectionCheck, ShardTimeouts timeouts,
                             IdleConnections idleConnections, CatalogOptions catalogOptions,
                             ReplicaConfig replicas) {

    @Override
    public String toString() {
        return "ShardingConfig[" + topology + ", maxTotalConnections=" + maxTotalConnections + ", catalog="
                + Redaction.url(catalogUrl) + ", policies=" + policies + "]";
    }
}
