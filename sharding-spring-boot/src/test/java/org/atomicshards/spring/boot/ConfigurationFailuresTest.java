package org.atomicshards.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.env.MockEnvironment;

/**
 * Misconfiguration fails at boot naming the property, the value and the fix: binding errors through Spring Boot's
 * validation of {@link AtomicShardsProperties}, topology errors found by the runtime through
 * {@link ShardConfigurationFailureAnalyzer}.
 */
class ConfigurationFailuresTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AtomicShardsAutoConfiguration.class))
            .withUserConfiguration(NoEntities.class);

    /** An application package without entities or repositories. */
    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackages = "org.atomicshards.spring.boot.none")
    static class NoEntities {
    }

    private static String h2(String name) {
        return "jdbc:h2:mem:" + name + "_" + UUID.randomUUID().toString().substring(0, 8) + ";DB_CLOSE_DELAY=-1";
    }

    static Stream<Arguments> invalidProperties() {
        return Stream.of(
                Arguments.of(new String[] {"atomicshards.virtual-shards=64"}, "shards", "no shard is configured"),
                Arguments.of(new String[] {"atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=postgres://x"},
                        "shards[0].url", "must be a JDBC URL"),
                Arguments.of(new String[] {"atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=jdbc:h2:mem:x",
                        "atomicshards.shards[0].replicas[0].username=reader"},
                        "shards[0].replicas[0].url", "must be a JDBC URL"),
                Arguments.of(new String[] {"atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=jdbc:h2:mem:x",
                        "atomicshards.shards[1].id=s0", "atomicshards.shards[1].url=jdbc:h2:mem:y"},
                        "shards[1].id", "is used twice"),
                Arguments.of(new String[] {"atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=jdbc:h2:mem:x",
                        "atomicshards.default-shard=s9"}, "defaultShard", "names no configured shard"),
                Arguments.of(new String[] {"atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=jdbc:h2:mem:x",
                        "atomicshards.schema-action=recreate"}, "schemaAction", "is not a schema action"),
                Arguments.of(new String[] {"atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=jdbc:h2:mem:x",
                        "atomicshards.units.Customer.policy=range"}, "units[Customer].ranges", "is required by policy RANGE"),
                Arguments.of(new String[] {"atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=jdbc:h2:mem:x",
                        "atomicshards.units.Customer.policy=consistent-hash", "atomicshards.units.Customer.ring-nodes=0"},
                        "units[Customer].ringNodes",
                        "Setting 'atomicshards.units.Customer.ring-nodes' has value '0': it is not a positive whole number"),
                Arguments.of(new String[] {"atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=jdbc:h2:mem:x",
                        "atomicshards.units.Customer.policy=random"}, "units[Customer].policy",
                        "has value 'random'. Fix: use one of [hash, modulo, range, consistent_hash"),
                Arguments.of(new String[] {"atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=jdbc:h2:mem:x",
                        "atomicshards.units.Customer.options.first-letters=abc"}, "units[Customer].options[first-letters]",
                        "is not an option of policy hash"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("invalidProperties")
    void invalidPropertiesFailTheBindingNamingThePropertyAndTheFix(String[] properties, String field, String reason) {
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(BindValidationException.class)
                    .hasMessageContaining(field).hasMessageContaining(reason);
        });
    }

    @Nested
    class TopologyErrorsFoundByTheRuntime {

        @Test
        void areReportedAsDescriptionAndActionWithTheApplicationPropertyNames() {
            MockEnvironment environment = new MockEnvironment()
                    .withProperty("atomicshards.shards[0].id", "s0").withProperty("atomicshards.shards[0].url", h2("a"))
                    .withProperty("atomicshards.shards[1].id", "s1").withProperty("atomicshards.shards[1].url", h2("b"));
            runner.withPropertyValues("atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=" + h2("a"),
                            "atomicshards.shards[1].id=s1", "atomicshards.shards[1].url=" + h2("b"),
                            "atomicshards.catalog.url=" + h2("catalog"), "atomicshards.virtual-shards=8",
                            "atomicshards.virtual-shard-map=0-3=s0,4-7=s7")
                    .run(context -> {
                        assertThat(context).hasFailed();
                        FailureAnalysis analysis = new ShardConfigurationFailureAnalyzer(environment)
                                .analyze(context.getStartupFailure());
                        assertThat(analysis).isNotNull();
                        assertThat(analysis.getDescription())
                                .startsWith("Atomic Shards could not start the sharded EntityManagerFactory")
                                .contains("atomicshards.virtual-shard-map").contains("s7")
                                .doesNotContain("atomicshards.virtual_shard_map");
                        assertThat(analysis.getAction()).startsWith("Update your application's configuration.");
                    });
        }

        @Test
        void aBadMinIdleFailsTheBootNamedByItsPropertyName() {
            MockEnvironment environment = new MockEnvironment()
                    .withProperty("atomicshards.shards[0].id", "s0").withProperty("atomicshards.shards[0].url", h2("i"));
            runner.withPropertyValues("atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=" + h2("i"),
                            "atomicshards.catalog.url=" + h2("idle_catalog"), "atomicshards.pool.size=4",
                            "atomicshards.pool.min-idle=5", "atomicshards.pool.idle-timeout=30s")
                    .run(context -> {
                        assertThat(context).hasFailed();
                        FailureAnalysis analysis = new ShardConfigurationFailureAnalyzer(environment)
                                .analyze(context.getStartupFailure());
                        assertThat(analysis).isNotNull();
                        assertThat(analysis.getDescription()).contains("atomicshards.pool.min-idle").contains("'5'")
                                .doesNotContain("atomicshards.pool.min_idle");
                    });
        }

        @Test
        void serverShardsWithoutASharedCatalogAreRefusedNamingTheCatalogProperties() {
            MockEnvironment environment = new MockEnvironment()
                    .withProperty("atomicshards.shards[0].id", "s0").withProperty("atomicshards.shards[1].id", "s1");
            runner.withPropertyValues("atomicshards.shards[0].id=s0", "atomicshards.shards[0].url=" + h2("srv_a"),
                            "atomicshards.shards[1].id=s1",
                            "atomicshards.shards[1].url=jdbc:postgresql://db.invalid/shop?password=hunter2secret",
                            "atomicshards.virtual-shards=8")
                    .run(context -> {
                        assertThat(context).hasFailed();
                        FailureAnalysis analysis = new ShardConfigurationFailureAnalyzer(environment)
                                .analyze(context.getStartupFailure());
                        assertThat(analysis).isNotNull();
                        assertThat(analysis.getDescription()).contains("atomicshards.catalog.url")
                                .contains("shard 's1' is a server database").doesNotContain("hunter2secret");
                        assertThat(analysis.getAction()).contains("atomicshards.catalog.url")
                                .contains("atomicshards.catalog.single-instance=true");
                    });
        }

        @Test
        void runtimeSettingNamesAreTranslatedToApplicationProperties() {
            MockEnvironment environment = new MockEnvironment()
                    .withProperty("atomicshards.shards[0].id", "s0").withProperty("atomicshards.shards[1].id", "s1");
            ShardConfigurationFailureAnalyzer analyzer = new ShardConfigurationFailureAnalyzer(environment);
            assertThat(analyzer.translate("Setting 'atomicshards.shard.s1.url' is missing"))
                    .isEqualTo("Setting 'atomicshards.shards[1].url' is missing");
            assertThat(analyzer.translate("Setting 'atomicshards.shard.s1.pool_size' and 'atomicshards.pool.max_total'"))
                    .isEqualTo("Setting 'atomicshards.shards[1].pool-size' and 'atomicshards.pool.max-total'");
            assertThat(analyzer.translate("Settings 'atomicshards.unit.Customer.key_generation' = 'X'"))
                    .isEqualTo("Settings 'atomicshards.units.Customer.key-generation' = 'X'");
        }
    }

    @Test
    void aSpringApplicationWithABadTopologyFailsWithTheAnalysisOfTheRegisteredAnalyzer() {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(BadApplication.class).run(
                "--spring.main.banner-mode=off",
                "--atomicshards.shards[0].id=s0", "--atomicshards.shards[0].url=" + h2("bad_a"),
                "--atomicshards.catalog.url=" + h2("bad_catalog"), "--atomicshards.virtual-shards=8",
                "--atomicshards.virtual-shard-map=0-7=s3"));
        assertThat(failure).hasRootCauseInstanceOf(ShardConfigurationException.class);

        MockEnvironment environment = new MockEnvironment().withProperty("atomicshards.shards[0].id", "s0");
        List<FailureAnalyzer> registered = SpringFactoriesLoader.forDefaultResourceLocation().load(
                FailureAnalyzer.class, SpringFactoriesLoader.ArgumentResolver.of(Environment.class, environment),
                SpringFactoriesLoader.FailureHandler.handleMessage((message, e) -> { }));
        FailureAnalysis analysis = registered.stream().map(analyzer -> analyzer.analyze(failure))
                .filter(java.util.Objects::nonNull).findFirst().orElseThrow();
        assertThat(analysis.getDescription()).contains("Atomic Shards could not start the sharded EntityManagerFactory")
                .contains("atomicshards.virtual-shard-map").contains("s3");
        assertThat(analysis.getAction()).isNotBlank();
    }

    /** A Spring Boot application with no entities. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @AutoConfigurationPackage(basePackages = "org.atomicshards.spring.boot.none")
    static class BadApplication {
    }

    @Test
    void backsOffWhenDisabled() {
        runner.withPropertyValues("atomicshards.enabled=false")
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean(org.atomicshards.hibernate.ShardedSessionFactory.class));
    }
}
