package org.atomicshards.spring.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.spring.boot.AtomicShardsAutoConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** The {@code shards} actuator endpoint: the map this instance routes by and the operations in progress. */
class ShardsEndpointTest {

    private final List<Connection> keepAlive = new ArrayList<>();

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

    private String database() throws SQLException {
        String url = "jdbc:h2:mem:spring-endpoint-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        keepAlive.add(DriverManager.getConnection(url));
        return url;
    }

    private ApplicationContextRunner runner() throws SQLException {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AtomicShardsAutoConfiguration.class,
                        ShardsEndpointAutoConfiguration.class))
                .withUserConfiguration(NoEntities.class)
                .withPropertyValues("atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=" + database(),
                        "atomicshards.shards[1].id=s1", "atomicshards.shards[1].url=" + database(),
                        "atomicshards.catalog.url=" + database(), "atomicshards.virtual-shards=8");
    }

    @Test
    @SuppressWarnings("unchecked")
    void listsTheShardsTheirVirtualShardsAndTheOperations() throws SQLException {
        runner().withPropertyValues("management.endpoints.web.exposure.include=shards").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(ShardsEndpoint.class);
            ShardedSessionFactory shards = context.getBean(ShardedSessionFactory.class);

            Map<String, Object> result = context.getBean(ShardsEndpoint.class).shards();

            assertThat(result).containsEntry("mapVersion", 1).containsEntry("virtualShards", 8)
                    .containsEntry("operationsInProgress", List.of()).doesNotContainKey("catalogError");
            List<Map<String, Object>> list = (List<Map<String, Object>>) result.get("shards");
            assertThat(list).extracting(shard -> shard.get("id")).containsExactly("s0", "s1");
            for (Map<String, Object> shard : list) {
                List<Integer> owned = shards.directory().virtualShardsOf(ShardId.of((String) shard.get("id")));
                assertThat(shard).containsEntry("virtualShardCount", 4)
                        .containsEntry("virtualShards", ShardsEndpoint.ranges(owned));
            }
        });
    }

    @Test
    void notConfiguredWhenNotExposedOrWithoutTheActuator() throws SQLException {
        runner().run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ShardsEndpoint.class));
        runner().withPropertyValues("management.endpoints.web.exposure.include=shards")
                .withClassLoader(new FilteredClassLoader(Endpoint.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ShardsEndpoint.class));
    }

    @Test
    void rangesAreWrittenCompactly() {
        assertThat(ShardsEndpoint.ranges(List.of(0, 1, 2, 3, 8, 10, 11))).isEqualTo("0-3,8,10-11");
        assertThat(ShardsEndpoint.ranges(List.of())).isEmpty();
    }
}
