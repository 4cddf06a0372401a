package org.atomicshards.spring.boot.health;

import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.spring.boot.AtomicShardsAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code atomicShards} health indicator ({@link ShardsHealthIndicator}), when Spring Boot's health support
 * ({@code spring-boot-health}) is on the class path and the application has a {@link ShardedSessionFactory}. Turned
 * off like any indicator: {@code management.health.atomicshards.enabled=false}.
 */
@AutoConfiguration(after = AtomicShardsAutoConfiguration.class)
@ConditionalOnClass({HealthIndicator.class, ShardedSessionFactory.class})
@ConditionalOnBean(ShardedSessionFactory.class)
@ConditionalOnEnabledHealthIndicator("atomicshards")
@EnableConfigurationProperties(ShardsHealthProperties.class)
public class ShardsHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "atomicShardsHealthIndicator")
    public ShardsHealthIndicator atomicShardsHealthIndicator(ShardedSessionFactory shards,
                                                             ShardsHealthProperties properties) {
        return new ShardsHealthIndicator(shards, properties);
    }
}
