package org.atomicshards.spring.internal;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.orm.jpa.vendor.HibernateJpaVendorAdapter;

/**
 * Spring's container-managed JPA bootstrap of the sharded Hibernate factory (the {@code atomicshards.*} settings in
 * the JPA property map make Hibernate install Atomic Shards), wrapped by {@link RoutingEntityManagerFactory} so that
 * every entity manager Spring creates routes by shard. Exposes plain {@link EntityManagerFactory} and
 * {@link EntityManager} interfaces (not Hibernate's), since the entity managers are routing proxies.
 */
public final class ShardedEntityManagerFactoryBean extends LocalContainerEntityManagerFactoryBean {

    public ShardedEntityManagerFactoryBean() {
        setJpaVendorAdapter(new HibernateJpaVendorAdapter());
        setJpaDialect(new ShardingJpaDialect());
        setEntityManagerFactoryInterface(EntityManagerFactory.class);
        setEntityManagerInterface(EntityManager.class);
    }

    @Override
    protected EntityManagerFactory createNativeEntityManagerFactory() {
        EntityManagerFactory hibernate = super.createNativeEntityManagerFactory();
        try {
            ShardedSessionFactory shards = AtomicShards.from(hibernate);
            return RoutingEntityManagerFactory.wrap(hibernate, shards, shards.fanOut());
        } catch (RuntimeException e) {
            hibernate.close();
            throw e;
        }
    }
}
