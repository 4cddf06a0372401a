package org.atomicshards.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.atomicshards.hibernate.ShardedSessionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** Shard and catalog passwords set as Spring properties authenticate but never reach Hibernate's settings. */
class PasswordsTest {

    private final List<Connection> keepAlive = new ArrayList<>();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AtomicShardsAutoConfiguration.class))
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

    /** A private in-memory H2 database that only accepts {@code owner} / {@code password}. */
    private String securedDatabase(String password) throws SQLException {
        String url = "jdbc:h2:mem:spring-secret-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        keepAlive.add(DriverManager.getConnection(url, "owner", password));
        return url;
    }

    @Test
    void passwordsAuthenticateButAreNotInHibernatesProperties() throws SQLException {
        runner.withPropertyValues(
                        "atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=" + securedDatabase("hunter2secret"),
                        "atomicshards.shards[0].username=owner", "atomicshards.shards[0].password=hunter2secret",
                        "atomicshards.catalog.url=" + securedDatabase("catalog9secret"),
                        "atomicshards.catalog.username=owner", "atomicshards.catalog.password=catalog9secret",
                        "atomicshards.virtual-shards=8")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    String properties = context.getBean(ShardedSessionFactory.class).sessionFactory().getProperties()
                            .toString();
                    assertThat(properties).contains("atomicshards.shard.s0.url")
                            .doesNotContain("hunter2secret").doesNotContain("catalog9secret");
                });
    }

    @Test
    void passwordsInTheUrlsAuthenticateButAreNotInHibernatesProperties() throws SQLException {
        runner.withPropertyValues(
                        "atomicshards.shards[0].id=s0",
                        "atomicshards.shards[0].url=" + securedDatabase("hunter2secret") + ";USER=owner;PASSWORD=hunter2secret",
                        "atomicshards.catalog.url=" + securedDatabase("catalog9secret") + ";USER=owner;PASSWORD=catalog9secret",
                        "atomicshards.virtual-shards=8")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    String properties = context.getBean(ShardedSessionFactory.class).sessionFactory().getProperties()
                            .toString();
                    assertThat(properties).contains("atomicshards.shard.s0.url=jdbc:h2:mem:spring-secret-")
                            .doesNotContain("hunter2secret").doesNotContain("catalog9secret");
                });
    }
}
