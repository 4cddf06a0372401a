package org.atomicshards.spring.boot.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.atomicshards.spring.boot.AtomicShardsAutoConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** The {@code atomicShards} health indicator: configured only with Spring Boot's health support, each shard probed. */
class ShardsHealthIndicatorTest {

    private final List<Connection> keepAlive = new ArrayList<>();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AtomicShardsAutoConfiguration.class,
                    ShardsHealthAutoConfiguration.class))
            .withUserConfiguration(NoEntities.class);

    /** An application package without entities or repositories. */
    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackages = "org.atomicshards.spring.boot.none")
    static class NoEntities {
    }

    @AfterEach
    void release() throws SQLException {
        for (Connection connection : keepAlive) {
            connection.close();
        }
    }

    private String database(String password) throws SQLException {
        String url = "jdbc:h2:mem:spring-health-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        keepAlive.add(DriverManager.getConnection(url, "owner", password));
        return url;
    }

    private ApplicationContextRunner twoShards(String secondUrl) throws SQLException {
        return runner.withPropertyValues(
                "atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=" + database("pw0-health-secret"),
                "atomicshards.shards[0].username=owner", "atomicshards.shards[0].password=pw0-health-secret",
                "atomicshards.shards[1].id=s1", "atomicshards.shards[1].url=" + secondUrl,
                "atomicshards.shards[1].username=owner", "atomicshards.shards[1].password=pw1-health-secret",
                "atomicshards.catalog.url=" + database("catalog-health-secret"),
                "atomicshards.catalog.username=owner", "atomicshards.catalog.password=catalog-health-secret",
                "atomicshards.boot-connection-check=false",
                "atomicshards.virtual-shards=8");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> detail(Health health, String... path) {
        Object node = health.getDetails();
        for (String key : path) {
            node = ((Map<String, Object>) node).get(key);
        }
        return (Map<String, Object>) node;
    }

    @Test
    void everyShardAndTheCatalogAreUp() throws SQLException {
        twoShards(database("pw1-health-secret")).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(ShardsHealthIndicator.class)
                    .hasBean("atomicShardsHealthIndicator");

            Health health = context.getBean(ShardsHealthIndicator.class).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(detail(health, "shards", "s0")).containsEntry("status", "UP").containsEntry("virtualShards", 4);
            assertThat(detail(health, "shards", "s1")).containsEntry("status", "UP").containsEntry("virtualShards", 4);
            assertThat(health.getDetails()).containsEntry("shardsDown", 0)
                    .containsEntry("operationsInProgress", List.of());
            assertThat(detail(health, "catalog")).containsEntry("status", "UP").containsEntry("mapVersion", 1)
                    .containsEntry("virtualShards", 8);
        });
    }

    @Test
    void aDownShardIsInTheDetailsAndMakesTheApplicationDownOnlyWhenRequired() throws SQLException {
        String unreachable = "jdbc:h2:tcp://127.0.0.1:1/nowhere";
        twoShards(unreachable).withPropertyValues("atomicshards.health.timeout=1s").run(context -> {
            assertThat(context).hasNotFailed();

            Health health = context.getBean(ShardsHealthIndicator.class).health();

            assertThat(health.getStatus()).as("s0 still serves its units").isEqualTo(Status.UP);
            assertThat(detail(health, "shards", "s0")).containsEntry("status", "UP");
            assertThat(detail(health, "shards", "s1")).containsEntry("status", "DOWN").containsKey("error");
            assertThat(health.getDetails()).containsEntry("shardsDown", 1);
            assertThat(health.toString()).doesNotContain("health-secret");
        });
        twoShards(unreachable).withPropertyValues("atomicshards.health.timeout=1s",
                "atomicshards.health.require-all-shards=true").run(context -> {
            Health health = context.getBean(ShardsHealthIndicator.class).health();

            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(detail(health, "shards", "s1")).containsEntry("status", "DOWN");
        });
    }

    @Test
    void anUnreachableReplicaMakesTheApplicationDegradedNotDown() throws SQLException {
        twoShards(database("pw1-health-secret")).withPropertyValues("atomicshards.health.timeout=4s",
                "atomicshards.shards[0].replicas[0].url=jdbc:postgresql://127.0.0.1:1/nowhere",
                "atomicshards.shards[0].replicas[0].password=replica-health-secret").run(context -> {
            assertThat(context).hasNotFailed();

            Health health = context.getBean(ShardsHealthIndicator.class).health();

            assertThat(health.getStatus()).isEqualTo(ShardsHealthIndicator.DEGRADED);
            assertThat(detail(health, "shards", "s0")).as("the shard itself, on its primary")
                    .containsEntry("status", "UP");
            assertThat(detail(health, "replicas", "s0/r1")).containsEntry("status", "DOWN").containsKey("error");
            assertThat(health.toString()).doesNotContain("health-secret");
        });
    }

    @Test
    void theApplicationsMigrationsRunOnEveryShardAtStartAndTheirVersionsAreShown() throws SQLException {
        twoShards(database("pw1-health-secret")).withPropertyValues(
                "atomicshards.properties.atomicshards.migrations.tool=flyway",
                "atomicshards.properties.atomicshards.migrations.locations=classpath:db/health-migrations")
                .run(context -> {
                    assertThat(context).hasNotFailed();

                    Health health = context.getBean(ShardsHealthIndicator.class).health();

                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("schemaVersions", Map.of("s0", "2", "s1", "2"))
                            .containsEntry("schemaVersionsDiffer", false);
                });
    }

    @Test
    void aShardWhoseMigrationFailsStopsTheStartNamingIt() throws SQLException {
        String second = database("pw1-health-secret");
        try (Connection connection = DriverManager.getConnection(second, "owner", "pw1-health-secret")) {
            connection.createStatement().execute("create table health_note (something integer)");
        }
        twoShards(second).withPropertyValues(
                "atomicshards.properties.atomicshards.migrations.tool=flyway",
                "atomicshards.properties.atomicshards.migrations.locations=classpath:db/health-migrations")
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    StringBuilder messages = new StringBuilder();
                    for (Throwable t = failure; t != null; t = t.getCause()) {
                        messages.append(t.getMessage()).append('\n');
                    }
                    assertThat(messages.toString()).contains("The application's flyway migrations failed on shard 's1'")
                            .contains("Migrated before it: {s0=2}").doesNotContain("health-secret");
                });
    }

    @Test
    void notConfiguredWithoutSpringBootsHealthSupportOrWhenDisabled() throws SQLException {
        twoShards(database("pw1-health-secret")).withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(ShardsHealthIndicator.class);
                    assertThat(context).hasBean("shardedSessionFactory");
                });
        twoShards(database("pw1-health-secret")).withPropertyValues("management.health.atomicshards.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ShardsHealthIndicator.class));
    }
}
