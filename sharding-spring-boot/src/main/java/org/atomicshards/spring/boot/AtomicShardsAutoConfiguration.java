package org.atomicshards.spring.boot;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.persistence.EntityManagerFactory;
import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.spring.ShardScopes;
import org.atomicshards.spring.internal.RoutedQueryExtractor;
import org.atomicshards.spring.internal.ShardKeyParamAdvisor;
import org.atomicshards.spring.internal.ShardedEntityManagerFactoryBean;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.persistence.autoconfigure.EntityScanPackages;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.config.JpaRepositoryConfigExtension;
import org.springframework.data.jpa.repository.query.DefaultJpaQueryMethodFactory;
import org.springframework.data.jpa.repository.query.JpaQueryMethodFactory;
import org.springframework.data.jpa.repository.support.JpaRepositoryFactoryBean;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.transaction.TransactionManager;

/**
 * Auto-configuration of Atomic Shards for Spring Boot: from {@link AtomicShardsProperties}, one sharded
 * {@code EntityManagerFactory} (its entity managers route by shard key and fan out queries that name none), a
 * {@link JpaTransactionManager} whose transactions run on one shard, the {@link ShardedSessionFactory} and
 * {@link ShardScopes} beans, the {@link org.atomicshards.spring.ShardKeyParam} advice, Spring Data JPA repositories
 * over the application's packages and, with Micrometer present, HikariCP metrics for every shard pool.
 *
 * <p>Runs before Spring Boot's own JPA and DataSource-based auto-configurations, which then back off. Disable it
 * with {@code atomicshards.enabled=false}.
 */
@AutoConfiguration(beforeName = {
        "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
        "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration"})
@ConditionalOnClass({LocalContainerEntityManagerFactoryBean.class, ShardedSessionFactory.class})
@ConditionalOnBooleanProperty(name = "atomicshards.enabled", matchIfMissing = true)
@EnableConfigurationProperties(AtomicShardsProperties.class)
public class AtomicShardsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean({LocalContainerEntityManagerFactoryBean.class, EntityManagerFactory.class})
    public ShardedEntityManagerFactoryBean entityManagerFactory(AtomicShardsProperties properties,
                                                                BeanFactory beanFactory,
                                                                ObjectProvider<ShardingSettingsCustomizer> customizers) {
        ShardedEntityManagerFactoryBean factory = new ShardedEntityManagerFactoryBean();
        factory.setPersistenceUnitName("atomicshards");
        factory.setPackagesToScan(entityPackages(beanFactory));
        Map<String, Object> settings = SettingsMapper.toSettings(properties);
        customizers.orderedStream().forEach(customizer -> customizer.customize(settings));
        factory.setJpaPropertyMap(settings);
        return factory;
    }

    private static String[] entityPackages(BeanFactory beanFactory) {
        List<String> packages = new ArrayList<>(EntityScanPackages.get(beanFactory).getPackageNames());
        if (packages.isEmpty() && AutoConfigurationPackages.has(beanFactory)) {
            packages.addAll(AutoConfigurationPackages.get(beanFactory));
        }
        return packages.toArray(String[]::new);
    }

    /** The sharded factory's own API (units of work, replication of reference data, schema, directory). */
    @Bean(destroyMethod = "")
    @ConditionalOnMissingBean
    public ShardedSessionFactory shardedSessionFactory(EntityManagerFactory entityManagerFactory) {
        return AtomicShards.from(entityManagerFactory);
    }

    @Bean
    @ConditionalOnMissingBean(TransactionManager.class)
    public JpaTransactionManager transactionManager(EntityManagerFactory entityManagerFactory) {
        return new JpaTransactionManager(entityManagerFactory);
    }

    @Bean
    @ConditionalOnMissingBean
    public ShardScopes shardScopes(ShardedSessionFactory shardedSessionFactory) {
        return new ShardScopes(shardedSessionFactory);
    }

    /** Infrastructure role: picked up by the auto-proxy creator that {@code @EnableTransactionManagement} installs. */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static ShardKeyParamAdvisor shardKeyParamAdvisor(ObjectProvider<ShardScopes> shardScopes) {
        return new ShardKeyParamAdvisor(shardScopes::getObject, ShardKeyParamAdvisor.DEFAULT_ORDER);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JpaRepository.class)
    @ConditionalOnMissingBean({JpaRepositoryFactoryBean.class, JpaRepositoryConfigExtension.class})
    @ConditionalOnBooleanProperty(name = "spring.data.jpa.repositories.enabled", matchIfMissing = true)
    @Import(ShardedRepositoriesRegistrar.class)
    static class RepositoriesConfiguration {
    }

    /** Query methods that read their statement from a routed query (methods backed by a JPA named query). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JpaRepository.class)
    static class QueryMethodConfiguration {

        @Bean
        @ConditionalOnMissingBean
        JpaQueryMethodFactory jpaQueryMethodFactory() {
            return new DefaultJpaQueryMethodFactory(new RoutedQueryExtractor());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"io.micrometer.core.instrument.MeterRegistry",
            "com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory"})
    static class PoolMetricsConfiguration {

        /** Every shard pool reports HikariCP's meters ({@code hikaricp.connections.*}) tagged with its pool name. */
        @Bean
        ShardingSettingsCustomizer shardPoolMetrics(ObjectProvider<io.micrometer.core.instrument.MeterRegistry> registry) {
            return settings -> registry.ifAvailable(meters -> settings.put(
                    ShardingSettings.POOL_METRICS_TRACKER_FACTORY,
                    new com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory(meters)));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class ShardMetricsConfiguration {

        /**
         * The factory records its meters ({@code atomicshards.unit_of_work}, {@code atomicshards.fanout}, ...) in the
         * application's registry, unless {@code atomicshards.metrics.meter_registry} was set already.
         */
        @Bean
        ShardingSettingsCustomizer shardMetrics(ObjectProvider<io.micrometer.core.instrument.MeterRegistry> registry) {
            return settings -> registry.ifAvailable(meters ->
                    settings.putIfAbsent(ShardingSettings.METER_REGISTRY, meters));
        }
    }
}
