package org.atomicshards.spring.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.internal.scope.ShardBinding;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * The {@link EntityManagerFactory} Spring holds: Hibernate's sharded factory, except that every
 * {@code createEntityManager} returns a {@link ShardRoutedEntityManager}, bound to the shard the thread is bound to
 * ({@link org.atomicshards.spring.ShardScopes}, {@code @ShardKeyParam}, {@code ShardScope}) or, outside any, binding
 * to the first shard it is given a key of. {@code unwrap} reaches
 * Hibernate's factory (so Spring Data recognises Hibernate); everything else is Hibernate's own answer.
 */
public final class RoutingEntityManagerFactory implements InvocationHandler {

    private final SessionFactoryImplementor sessionFactory;
    private final ShardedSessionFactory shards;
    private final FanOutQueries fanOut;
    private EntityManagerFactory proxy;

    private RoutingEntityManagerFactory(EntityManagerFactory hibernate, ShardedSessionFactory shards,
                                        FanOutQueries fanOut) {
        this.sessionFactory = hibernate.unwrap(SessionFactoryImplementor.class);
        this.shards = shards;
        this.fanOut = fanOut;
    }

    /** Wraps Hibernate's sharded factory; closing the result closes the factory (and with it {@code fanOut}). */
    public static EntityManagerFactory wrap(EntityManagerFactory hibernate, ShardedSessionFactory shards,
                                            FanOutQueries fanOut) {
        RoutingEntityManagerFactory handler = new RoutingEntityManagerFactory(hibernate, shards, fanOut);
        handler.proxy = (EntityManagerFactory) Proxy.newProxyInstance(RoutingEntityManagerFactory.class.getClassLoader(),
                new Class<?>[] {EntityManagerFactory.class}, handler);
        return handler.proxy;
    }

    SessionFactoryImplementor sessionFactory() {
        return sessionFactory;
    }

    ShardedSessionFactory shards() {
        return shards;
    }

    FanOutQueries fanOut() {
        return fanOut;
    }

    EntityManagerFactory proxy() {
        return proxy;
    }

    /** A new session on {@code shard}; the caller owns it. */
    EntityManager openSession(ShardId shard) {
        return shards.openSession(shard);
    }

    /**
     * A new session on {@code shard} for a read-only transaction: on a replica when read-only work reads from
     * replicas (and one is fit), else as {@link #openSession}. The caller owns it.
     */
    EntityManager openSessionForReadOnlyTransaction(ShardId shard) {
        return shards.readOnlyWorkOnReplicas() ? shards.openReadOnlySession(shard) : shards.openSession(shard);
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "equals":
                return self == args[0];
            case "hashCode":
                return System.identityHashCode(self);
            case "toString":
                return "ShardedEntityManagerFactory[" + shards.shards() + "]";
            case "createEntityManager":
                return RoutingEntityManager.create(this, ShardBinding.shard(shards));
            case "unwrap":
                Class<?> type = (Class<?>) args[0];
                if (type == null || type == EntityManagerFactory.class) {
                    return sessionFactory;
                }
                if (type.isInstance(self)) {
                    return self;
                }
                if (type.isInstance(shards)) {
                    return shards;
                }
                return sessionFactory.unwrap(type);
            default:
                try {
                    return method.invoke(sessionFactory, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
        }
    }
}
