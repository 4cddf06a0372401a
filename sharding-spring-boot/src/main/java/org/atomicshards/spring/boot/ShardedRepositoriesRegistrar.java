package org.atomicshards.spring.boot;

import java.lang.annotation.Annotation;

import org.springframework.boot.autoconfigure.data.AbstractRepositoryConfigurationSourceSupport;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.data.jpa.repository.config.JpaRepositoryConfigExtension;
import org.springframework.data.repository.config.RepositoryConfigurationExtension;

/**
 * Enables Spring Data JPA repositories over the application's auto-configuration packages, as Spring Boot does when
 * it owns the DataSource (its own registrar is conditional on a DataSource bean, which a sharded application does
 * not have), with {@link ShardedJpaRepository} as the base class. Repository interfaces need no change: routing
 * happens in the entity managers they are given.
 */
class ShardedRepositoriesRegistrar extends AbstractRepositoryConfigurationSourceSupport {

    @Override
    protected Class<? extends Annotation> getAnnotation() {
        return EnableJpaRepositories.class;
    }

    @Override
    protected Class<?> getConfiguration() {
        return EnableJpaRepositoriesConfiguration.class;
    }

    @Override
    protected RepositoryConfigurationExtension getRepositoryConfigurationExtension() {
        return new JpaRepositoryConfigExtension();
    }

    @EnableJpaRepositories(repositoryBaseClass = ShardedJpaRepository.class)
    private static final class EnableJpaRepositoriesConfiguration {
    }
}
