package org.atomicshards.cli.command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.ShardSchemaVersion;
import org.atomicshards.hibernate.admin.ReplicaStatus;

import org.atomicshards.cli.internal.Skew;

/**
 * What {@code status} found.
 *
 * @param mapVersion     the version of the virtual→physical map in force
 * @param virtualShards  the number of virtual shards
 * @param catalog        the catalog's URL without credentials
 * @param entities       every counted entity (unit members, then reference data), by class name
 * @param shards         one line per physical shard, in topology order
 * @param units          the spread of each atomic unit over the shards that answered
 * @param referenceData  the reference-data entities
 * @param operations     the resharding operations in progress; null when the catalog has no journal table
 * @param schemaVersions each shard's schema version from the application's migrations, in topology order; empty
 *                       when no migration tool is configured ({@code atomicshards.migrations.tool})
 * @param replicas       every read replica with its state and lag, asked now; empty when no shard names one
 */
record StatusReport(int mapVersion, int virtualShards, String catalog, List<String> entities, List<ShardLine> shards,
                    List<UnitSpread> units, List<String> referenceData, List<Map<String, Object>> operations,
                    List<ShardSchemaVersion> schemaVersions, List<ReplicaStatus> replicas) {

    /**
     * @param status the shard's status in the catalog's shard registry ({@code ONLINE}, ...; null if unregistered)
     * @param rows   rows per entity class name; empty when the shard could not be read
     * @param error  why the shard could not be read, or null
     */
    record ShardLine(String id, String status, String url, int virtualShards, Map<String, Long> rows, String error) {
    }

    /**
     * @param unitsPerShard root rows per shard that answered
     * @param units         spread of the units (root rows) over those shards
     * @param rows          spread of all the unit's rows (every member) over those shards
     */
    record UnitSpread(String root, String policy, Map<String, Long> unitsPerShard, Skew units, Skew rows) {
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("mapVersion", mapVersion);
        json.put("virtualShards", virtualShards);
        json.put("catalog", catalog);
        List<Object> shardList = new ArrayList<>();
        for (ShardLine shard : shards) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("id", shard.id());
            line.put("status", shard.status());
            line.put("reachable", shard.error() == null);
            line.put("url", shard.url());
            line.put("virtualShards", shard.virtualShards());
            line.put("rows", shard.rows());
            line.put("error", shard.error());
            shardList.add(line);
        }
        json.put("shards", shardList);
        List<Object> unitList = new ArrayList<>();
        for (UnitSpread unit : units) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("root", unit.root());
            line.put("policy", unit.policy());
            line.put("unitsPerShard", unit.unitsPerShard());
            line.put("unitSkew", unit.units() == null ? null : unit.units().toJson());
            line.put("rowSkew", unit.rows() == null ? null : unit.rows().toJson());
            unitList.add(line);
        }
        json.put("units", unitList);
        json.put("referenceData", referenceData);
        json.put("operationsInProgress", operations);
        if (!schemaVersions.isEmpty()) {
            Map<String, Object> versions = new LinkedHashMap<>();
            schemaVersions.forEach(v -> versions.put(v.shard().name(), v.error() != null ? "unreadable: " + v.error()
                    : v.version()));
            json.put("schemaVersions", versions);
            json.put("schemaVersionsDiffer", ShardSchemaVersion.differ(schemaVersions));
        }
        if (!replicas.isEmpty()) {
            List<Object> replicaList = new ArrayList<>();
            for (ReplicaStatus replica : replicas) {
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("shard", replica.shard());
                line.put("name", replica.name());
                line.put("url", replica.url());
                line.put("state", replica.state());
                line.put("lagMillis", replica.lagMillis() < 0 ? null : replica.lagMillis());
                line.put("error", replica.detail().isEmpty() ? null : replica.detail());
                replicaList.add(line);
            }
            json.put("replicas", replicaList);
        }
        return json;
    }
}
