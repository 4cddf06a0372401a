package org.atomicshards.spring.boot.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.admin.OperationStatus;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.spi.ShardDirectory;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code /actuator/shards}: what this instance routes by (the map version, each shard with the virtual shards it
 * owns, as ranges) and the resharding operations in progress in the catalog. Reads only: the map from this
 * instance's cache, the operations from the catalog (an unreachable catalog is reported as {@code catalogError},
 * the rest is still shown). Exposed like any endpoint ({@code management.endpoints.web.exposure.include=shards}).
 */
@Endpoint(id = "shards")
public class ShardsEndpoint {

    private final ShardedSessionFactory shards;

    public ShardsEndpoint(ShardedSessionFactory shards) {
        this.shards = shards;
    }

    @ReadOperation
    public Map<String, Object> shards() {
        ShardDirectory directory = shards.directory();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("mapVersion", directory.version());
        result.put("virtualShards", directory.virtualShards());
        List<Map<String, Object>> list = new ArrayList<>();
        for (ShardId shard : shards.shards()) {
            List<Integer> owned = directory.virtualShardsOf(shard);
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("id", shard.name());
            item.put("virtualShardCount", owned.size());
            item.put("virtualShards", ranges(owned));
            list.add(item);
        }
        result.put("shards", list);
        try {
            result.put("operationsInProgress", shards.admin().operations().stream().map(ShardsEndpoint::describe)
                    .toList());
        } catch (RuntimeException e) {
            String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
            result.put("catalogError", Redaction.url(message.replaceAll("\\s*\\R\\s*", " ").strip()));
        }
        return result;
    }

    private static Map<String, Object> describe(OperationStatus operation) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("id", operation.id());
        item.put("kind", operation.kind());
        item.put("target", operation.target().name());
        item.put("virtualShards", operation.virtualShards());
        item.put("state", operation.state());
        item.put("batch", operation.batch());
        item.put("owner", operation.owner());
        item.put("leaseUntil", operation.leaseUntil() == null ? null : operation.leaseUntil().toString());
        item.put("error", operation.error());
        return item;
    }

    /** Ascending numbers as ranges: {@code 0-3,8}. */
    static String ranges(List<Integer> ascending) {
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < ascending.size()) {
            int j = i;
            while (j + 1 < ascending.size() && ascending.get(j + 1) == ascending.get(j) + 1) {
                j++;
            }
            if (!text.isEmpty()) {
                text.append(',');
            }
            text.append(ascending.get(i));
            if (j > i) {
                text.append('-').append(ascending.get(j));
            }
            i = j + 1;
        }
        return text.toString();
    }
}
