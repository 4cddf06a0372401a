package org.atomicshards.spring.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.persistence.EntityManager;
import jakarta.persistence.Parameter;
import jakarta.persistence.Query;
import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.ParameterExpression;
import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedQuery;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * A query created on a {@link ShardRoutedEntityManager}: a JDK proxy over {@link TypedQuery} that records what the
 * caller sets (parameters, paging, hints) on the fan-out query, and decides where to run when a result is asked for,
 * from the shards the query's shard-key predicates reach with the parameters bound:
 *
 * <ul>
 *   <li>only the entity manager's bound (or scoped) shard: on that shard's session, inside the unit of work;</li>
 *   <li>one shard, entity manager not bound, inside a transaction: binds to that shard and runs there (so entities
 *       it returns are managed by the unit of work, as with one database);</li>
 *   <li>otherwise: across all target shards, merged ({@link org.atomicshards.hibernate.FanOutQueries}); rejected with
 *       {@link org.atomicshards.hibernate.CrossShardUnitOfWorkException} inside a read-write unit of work already
 *       bound to a shard, whose transaction could not include the other shards.</li>
 * </ul>
 *
 * Update and delete statements run on the bound (or scoped) shard only.
 */
final class RoutingQuery implements InvocationHandler {

    private final RoutingEntityManager owner;
    private final Object source;
    private final Class<?> resultType;
    private final TypedQuery<?> fanOut;
    private final RuntimeException fanOutUnsupported;
    private final List<Invocation> settings = new ArrayList<>();
    private RuntimeException fanOutRejectedSetting;
    private Query template;
    private Object proxy;

    private RoutingQuery(RoutingEntityManager owner, Object source, Class<?> resultType) {
        this.owner = owner;
        this.source = source;
        this.resultType = resultType;
        TypedQuery<?> created = null;
        RuntimeException unsupported = null;
        try {
            EntityManager fanOutEntityManager = owner.fanOutEntityManager();
            if (source instanceof CriteriaQuery<?> criteria) {
                created = fanOutEntityManager.createQuery(criteria);
            } else if (resultType != null) {
                created = fanOutEntityManager.createQuery((String) source, resultType);
            } else {
                created = (TypedQuery<?>) fanOutEntityManager.createQuery((String) source);
            }
        } catch (AtomicShardsException e) {
            unsupported = e; // e.g. an update or delete statement: it can only run on one shard
        }
        this.fanOut = created;
        this.fanOutUnsupported = unsupported;
    }

    static Object create(RoutingEntityManager owner, String hql, Class<?> resultType) {
        return new RoutingQuery(owner, hql, resultType).proxy();
    }

    static Object create(RoutingEntityManager owner, CriteriaQuery<?> criteria) {
        return new RoutingQuery(owner, criteria, null).proxy();
    }

    private Object proxy() {
        proxy = Proxy.newProxyInstance(RoutingQuery.class.getClassLoader(),
                new Class<?>[] {TypedQuery.class, RoutedQuery.class}, this);
        return proxy;
    }

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        try {
            switch (name) {
                case "equals":
                    return self == args[0];
                case "hashCode":
                    return System.identityHashCode(self);
                case "toString":
                    return "RoutingQuery[" + (source instanceof String hql ? hql : "<criteria>") + "]";
                case "unwrap":
                    return unwrap((Class<?>) args[0]);
                case "queryString":
                    return source instanceof SqmSelectStatement<?> criteria ? criteria.toHqlString() : source;
                case "getResultList":
                case "getResultStream":
                case "getSingleResult":
                case "getSingleResultOrNull":
                    return method.invoke(select(), args);
                case "executeUpdate":
                    return method.invoke(onSession(owner.pinnedSession("executeUpdate")), args);
                default:
                    break;
            }
            if (name.startsWith("set")) {
                record(method, args);
                return self;
            }
            return method.invoke(metadata(), args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private void record(Method method, Object[] args) throws Exception {
        settings.add(new Invocation(method, args));
        if (template != null) {
            method.invoke(template, args);
        }
        if (fanOut != null) {
            try {
                method.invoke(fanOut, args);
            } catch (InvocationTargetException e) {
                if (!(e.getCause() instanceof RuntimeException rejected)) {
                    throw e;
                }
                fanOutRejectedSetting = rejected; // e.g. a lock mode: fine on one shard, fatal only if it fans out
            }
        }
    }

    /** Where the query's metadata (parameters, paging, hints) is read: the fan-out query, else a one-shard one. */
    private Object metadata() {
        if (fanOut != null) {
            return fanOut;
        }
        if (template == null) {
            ShardId pinned = owner.pinnedShard();
            template = onSession(pinned != null ? owner.bind(pinned, "create a query") : owner.templateSession());
        }
        return template;
    }

    private Object unwrap(Class<?> type) {
        if (type == null || type.isInstance(proxy)) {
            return proxy;
        }
        if (fanOut != null) {
            return fanOut.unwrap(type);
        }
        return ((Query) metadata()).unwrap(type);
    }

    /** The query to read results from, chosen as the class comment says. */
    private Query select() {
        if (fanOut == null) {
            ShardId pinned = owner.pinnedShard();
            if (pinned == null) {
                throw fanOutUnsupported;
            }
            return onSession(owner.bind(pinned, "run a query"));
        }
        ShardedQuery<?> sharded = fanOut.unwrap(ShardedQuery.class);
        Set<ShardId> targets = sharded.targetShards();
        ShardId pinned = owner.pinnedShard();
        if (pinned != null) {
            if (targets.isEmpty() || targets.equals(Set.of(pinned))) {
                return onSession(owner.bind(pinned, "run a query"));
            }
            if (owner.inReadWriteTransaction()) {
                ShardId other = targets.stream().filter(t -> !t.equals(pinned)).findFirst().orElseThrow();
                throw owner.crossShard(other, "run a query that reaches shards " + targets + " (it names no shard key"
                        + " of this unit; read-only transactions and code outside the unit of work may fan out)");
            }
        } else if (targets.size() == 1 && owner.inTransaction()) {
            return onSession(owner.bind(targets.iterator().next(), "run a query"));
        }
        if (fanOutRejectedSetting != null) {
            throw fanOutRejectedSetting;
        }
        return fanOut;
    }

    /** The same query on one shard's session, with everything the caller set replayed. */
    private Query onSession(EntityManager session) {
        Query query;
        if (source instanceof CriteriaQuery<?> criteria) {
            query = session.createQuery(criteria);
        } else if (resultType != null) {
            query = session.createQuery((String) source, resultType);
        } else {
            query = session.createQuery((String) source);
        }
        for (Invocation setting : settings) {
            setting.replay(query);
        }
        return query;
    }

    /** One recorded setter call. Parameters that are not criteria parameters are rebound by name or position. */
    private record Invocation(Method method, Object[] args) {

        void replay(Query query) {
            try {
                if (args != null && args.length > 0 && args[0] instanceof Parameter<?> parameter
                        && !(args[0] instanceof ParameterExpression<?>)) {
                    Object[] rebound = args.clone();
                    Class<?>[] types = method.getParameterTypes().clone();
                    if (parameter.getName() != null) {
                        rebound[0] = parameter.getName();
                        types[0] = String.class;
                    } else {
                        rebound[0] = parameter.getPosition();
                        types[0] = int.class;
                    }
                    Query.class.getMethod(method.getName(), types).invoke(query, rebound);
                    return;
                }
                method.invoke(query, args);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw new IllegalStateException(e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Cannot replay " + method.getName() + " on the shard's query", e);
            }
        }
    }
}
