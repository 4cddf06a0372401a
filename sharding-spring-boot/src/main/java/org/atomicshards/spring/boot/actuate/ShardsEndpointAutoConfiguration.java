package org.atomicshards.spring.boot.actuate;

import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.spring.boot.AtomicShardsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code shards} actuator endpoint ({@link ShardsEndpoint}), when Spring Boot's actuator is on the class path,
 * the application has a {@link ShardedSessionFactory} and the endpoint is available (enabled and exposed).
 */
@AutoConfiguration(after = AtomicShardsAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class, ShardedSessionFactory.class})
@ConditionalOnBean(ShardedSessionFactory.class)
@ConditionalOnAvailableEndpoint(ShardsEndpoint.class)
public class ShardsEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public ShardsEndpoint shardsEndpoint(ShardedSessionFactory shards) {
        return new ShardsEndpoint(shards);
    }
}
