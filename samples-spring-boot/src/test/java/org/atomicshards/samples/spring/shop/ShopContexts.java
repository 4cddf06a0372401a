package org.atomicshards.samples.spring.shop;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shop twice: sharded over the given shard databases, and as the oracle, the same application with the same
 * repository interfaces on one plain H2 database (Atomic Shards disabled, Spring Boot's own JPA set-up).
 */
final class ShopContexts implements AutoCloseable {

    final ConfigurableApplicationContext sharded;
    final ConfigurableApplicationContext oracle;

    private ShopContexts(ConfigurableApplicationContext sharded, ConfigurableApplicationContext oracle) {
        this.sharded = sharded;
        this.oracle = oracle;
    }

    static ShopContexts start(ShardDatabases databases) {
        return start(databases, List.of());
    }

    /** As {@link #start(ShardDatabases)}, the sharded application given {@code extraArgs} too. */
    static ShopContexts start(ShardDatabases databases, List<String> extraArgs) {
        List<String> args = new ArrayList<>(List.of("--spring.main.banner-mode=off",
                "--atomicshards.catalog.url=" + databases.catalogUrl(),
                "--atomicshards.virtual-shards=256",
                "--atomicshards.schema-action=create-drop",
                "--atomicshards.units.Customer.policy=hash",
                // the topology refresh looks at each shard's write leases with a connection of that shard's pool, in
                // the background: it would count against the shard a keyed operation must not touch (onlyOn)
                "--atomicshards.catalog.refresh-interval=1h"));
        List<ShardDatabase> shards = databases.shards();
        for (int i = 0; i < shards.size(); i++) {
            ShardDatabase shard = shards.get(i);
            args.add("--atomicshards.shards[" + i + "].id=" + shard.id());
            args.add("--atomicshards.shards[" + i + "].url=" + shard.url());
            if (shard.user() != null) {
                args.add("--atomicshards.shards[" + i + "].username=" + shard.user());
            }
            if (shard.password() != null && !shard.password().isEmpty()) {
                args.add("--atomicshards.shards[" + i + "].password=" + shard.password());
            }
        }
        args.addAll(extraArgs);
        ConfigurableApplicationContext sharded = new SpringApplicationBuilder(ShopApplication.class, Metrics.class)
                .run(args.toArray(String[]::new));
        try {
            String oracleDb = "oracle_" + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);
            ConfigurableApplicationContext oracle = new SpringApplicationBuilder(ShopApplication.class).run(
                    "--spring.main.banner-mode=off", "--atomicshards.enabled=false",
                    "--spring.datasource.url=jdbc:h2:mem:" + oracleDb + ";DB_CLOSE_DELAY=-1",
                    "--spring.jpa.hibernate.ddl-auto=create-drop");
            return new ShopContexts(sharded, oracle);
        } catch (RuntimeException e) {
            sharded.close();
            throw e;
        }
    }

    <T> T sharded(Class<T> bean) {
        return sharded.getBean(bean);
    }

    <T> T oracle(Class<T> bean) {
        return oracle.getBean(bean);
    }

    ShardedSessionFactory shards() {
        return sharded.getBean(ShardedSessionFactory.class);
    }

    /** Connections handed out so far by each shard's pool, from HikariCP's Micrometer meters (0 if not started). */
    long acquisitions(ShardId shard) {
        MeterRegistry registry = sharded.getBean(MeterRegistry.class);
        return registry.find("hikaricp.connections.acquire").timers().stream()
                .filter(timer -> String.valueOf(timer.getId().getTag("pool")).endsWith("-" + shard))
                .mapToLong(Timer::count).sum();
    }

    /** Connections handed out so far by every shard's pool, in topology order. */
    List<Long> acquisitions() {
        return shards().shards().stream().map(this::acquisitions).toList();
    }

    @Override
    public void close() {
        try {
            oracle.close();
        } finally {
            sharded.close();
        }
    }

    /** A meter registry, so that the shard pools report HikariCP's metrics. */
    @Configuration(proxyBeanMethods = false)
    static class Metrics {

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }
}
