package org.atomicshards.spring.boot;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Reports a {@link ShardConfigurationException} (an invalid topology, policy or catalog found when the sharded
 * factory boots) in Spring Boot's "Description / Action" form, with the runtime's setting names translated to the
 * {@code atomicshards.*} application properties that set them.
 */
public final class ShardConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<ShardConfigurationException> {

    private static final Pattern SETTING = Pattern.compile("atomicshards\\.[A-Za-z0-9_.$-]*[A-Za-z0-9_]");
    private static final Map<String, String> RENAMED = Map.ofEntries(
            Map.entry("atomicshards.virtual_shards", "atomicshards.virtual-shards"),
            Map.entry("atomicshards.virtual_shard_map", "atomicshards.virtual-shard-map"),
            Map.entry("atomicshards.default_shard", "atomicshards.default-shard"),
            Map.entry("atomicshards.pool.size", "atomicshards.pool.size"),
            Map.entry("atomicshards.pool.max_total", "atomicshards.pool.max-total"),
            Map.entry("atomicshards.pool.connection_timeout_ms", "atomicshards.pool.connection-timeout"),
            Map.entry("atomicshards.pool.socket_timeout_ms", "atomicshards.pool.socket-timeout"),
            Map.entry("atomicshards.pool.min_idle", "atomicshards.pool.min-idle"),
            Map.entry("atomicshards.pool.idle_timeout_ms", "atomicshards.pool.idle-timeout"),
            Map.entry("atomicshards.transaction_timeout_ms", "atomicshards.transaction-timeout"),
            Map.entry("atomicshards.catalog.user", "atomicshards.catalog.username"),
            Map.entry("atomicshards.catalog.single_instance", "atomicshards.catalog.single-instance"),
            Map.entry("atomicshards.catalog.connection_timeout_ms", "atomicshards.catalog.connection-timeout"),
            Map.entry("atomicshards.catalog.lock_timeout_ms", "atomicshards.catalog.lock-timeout"),
            Map.entry("atomicshards.catalog.refresh_interval_ms", "atomicshards.catalog.refresh-interval"),
            Map.entry("atomicshards.snowflake.worker_id", "atomicshards.snowflake-worker-id"),
            Map.entry("atomicshards.sequence.block_size", "atomicshards.sequence-block-size"),
            Map.entry("atomicshards.model_check", "atomicshards.model-check"),
            Map.entry("atomicshards.schema.action", "atomicshards.schema-action"));

    private final List<String> shardIds;

    public ShardConfigurationFailureAnalyzer(Environment environment) {
        this.shardIds = Binder.get(environment)
                .bind("atomicshards.shards", Bindable.listOf(AtomicShardsProperties.Shard.class))
                .map(shards -> shards.stream().map(AtomicShardsProperties.Shard::getId).toList())
                .orElse(List.of());
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ShardConfigurationException cause) {
        String message = translate(String.valueOf(cause.getMessage()));
        int fix = message.indexOf("Fix:");
        String description = "Atomic Shards could not start the sharded EntityManagerFactory: "
                + (fix < 0 ? message : message.substring(0, fix).trim());
        String action = fix < 0
                ? "Correct the atomicshards.* properties named above in your application configuration."
                : "Update your application's configuration. " + message.substring(fix + "Fix:".length()).trim();
        return new FailureAnalysis(description, action, cause);
    }

    /** Replaces every runtime setting name in {@code message} with the application property that sets it. */
    String translate(String message) {
        Matcher matcher = SETTING.matcher(message);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(out, Matcher.quoteReplacement(property(matcher.group())));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private String property(String setting) {
        String renamed = RENAMED.get(setting);
        if (renamed != null) {
            return renamed;
        }
        if (setting.startsWith("atomicshards.shard.")) {
            String rest = setting.substring("atomicshards.shard.".length());
            int dot = rest.lastIndexOf('.');
            if (dot > 0) {
                int index = shardIds.indexOf(rest.substring(0, dot));
                String name = switch (rest.substring(dot + 1)) {
                    case "user" -> "username";
                    case "pool_size" -> "pool-size";
                    default -> rest.substring(dot + 1);
                };
                return "atomicshards.shards[" + (index < 0 ? "?" : String.valueOf(index)) + "]." + name
                        + (index < 0 ? " (shard '" + rest.substring(0, dot) + "')" : "");
            }
        }
        if (setting.startsWith("atomicshards.unit.")) {
            String rest = setting.substring("atomicshards.unit.".length());
            return "atomicshards.units." + rest.replace("key_generation", "key-generation")
                    .replace("ring_nodes", "ring-nodes");
        }
        return setting;
    }
}
