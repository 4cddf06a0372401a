package org.atomicshards.hibernate.internal.fanout;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.FlushModeType;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.CriteriaSelect;
import org.atomicshards.hibernate.UnboundEntityManagerException;
import org.hibernate.SessionFactory;

/**
 * The {@link EntityManager} that is bound to no shard: a JDK proxy over the interface (Hibernate's {@code Session}
 * is never wrapped). Its {@code createQuery} methods return fan-out queries, which are JPA
 * {@link jakarta.persistence.TypedQuery}s too; the
 * metadata methods answer from the session factory; every method that needs a shard throws
 * {@link UnboundEntityManagerException} naming the method.
 */
public final class FanOutEntityManagers {

    private FanOutEntityManagers() {
    }

    public static EntityManager create(SessionFactory sessionFactory, FanOutEngine engine) {
        return (EntityManager) Proxy.newProxyInstance(EntityManager.class.getClassLoader(),
                new Class<?>[] {EntityManager.class}, new Handler(sessionFactory, engine));
    }

    private static final class Handler implements InvocationHandler {

        private final SessionFactory sessionFactory;
        private final FanOutEngine engine;
        private final Map<String, Object> properties = new HashMap<>();
        private FlushModeType flushMode = FlushModeType.AUTO;
        private boolean open = true;

        Handler(SessionFactory sessionFactory, FanOutEngine engine) {
            this.sessionFactory = sessionFactory;
            this.engine = engine;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            switch (name) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "FanOutEntityManager[unbound; queries run on every shard]";
                case "isOpen":
                    return open;
                case "close":
                    open = false;
                    return null;
                default:
                    break;
            }
            if (!open) {
                throw new IllegalStateException("This fan-out EntityManager is closed");
            }
            switch (name) {
                case "createQuery":
                    return createQuery(method, args);
                case "createNamedQuery":
                    return createNamedQuery((String) args[0], args.length > 1 ? (Class<?>) args[1] : null);
                case "getCriteriaBuilder":
                    return sessionFactory.getCriteriaBuilder();
                case "getMetamodel":
                    return sessionFactory.getMetamodel();
                case "getEntityManagerFactory":
                    return sessionFactory;
                case "getProperties":
                    Map<String, Object> all = new HashMap<>(sessionFactory.getProperties());
                    all.putAll(properties);
                    return all;
                case "setProperty":
                    properties.put((String) args[0], args[1]);
                    return null;
                case "getFlushMode":
                    return flushMode;
                case "setFlushMode":
                    flushMode = (FlushModeType) args[0];
                    return null;
                case "contains":
                    return false;
                case "clear":
                case "detach":
                    return null;
                case "isJoinedToTransaction":
                    return false;
                case "getDelegate":
                    return proxy;
                case "unwrap":
                    Class<?> type = (Class<?>) args[0];
                    if (type.isInstance(proxy)) {
                        return proxy;
                    }
                    if (type.isInstance(sessionFactory)) {
                        return sessionFactory;
                    }
                    throw new jakarta.persistence.PersistenceException("The fan-out EntityManager cannot be"
                            + " unwrapped as " + type.getName() + ": it has no session (it is bound to no shard)");
                default:
                    throw new UnboundEntityManagerException(name);
            }
        }

        /** A named HQL query fans out like any other; like JPA, an unknown name is an IllegalArgumentException. */
        private Object createNamedQuery(String name, Class<?> resultType) {
            var memento = engine.sessionFactory().getQueryEngine().getNamedObjectRepository()
                    .getSqmQueryMemento(name);
            if (memento == null) {
                throw new IllegalArgumentException("No named HQL query '" + name + "' (named native queries do not"
                        + " fan out)");
            }
            return engine.createQuery(memento.getHqlString(), resultType);
        }

        private Object createQuery(Method method, Object[] args) {
            Object first = args[0];
            if (first instanceof String hql) {
                Class<?> resultType = args.length > 1 ? (Class<?>) args[1] : null;
                return engine.createQuery(hql, resultType);
            }
            if (first instanceof CriteriaQuery<?> criteria) {
                return engine.createQuery(criteria);
            }
            if (first instanceof CriteriaSelect<?>) {
                throw new org.atomicshards.hibernate.UnsupportedFanOutQueryException("a CriteriaSelect that is not"
                        + " a CriteriaQuery (a union)", "Run each part as its own query.");
            }
            throw new UnboundEntityManagerException(method.getName() + "(" + first.getClass().getSimpleName() + ")");
        }
    }
}
