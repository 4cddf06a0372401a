package org.atomicshards.spring.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.persistence.CacheRetrieveMode;
import jakarta.persistence.CacheStoreMode;
import jakarta.persistence.EntityManager;
import jakarta.persistence.FlushModeType;
import jakarta.persistence.criteria.CriteriaQuery;
import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.UnboundEntityManagerException;
import org.atomicshards.hibernate.UnreplicatedReferenceDataWriteException;
import org.atomicshards.hibernate.internal.scope.ShardBinding;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.hibernate.Session;
import org.hibernate.graph.RootGraph;
import org.hibernate.query.named.NamedObjectRepository;
import org.hibernate.query.sqm.spi.NamedSqmQueryMemento;
import org.springframework.transaction.TransactionDefinition;

/**
 * The behaviour behind {@link ShardRoutedEntityManager} (a JDK proxy; Hibernate's session is never wrapped, only
 * chosen). Until it is bound, it holds no session and no connection.
 *
 * <ul>
 *   <li>Bound at creation to the shard the thread is bound to ({@link ShardBinding}), if any.</li>
 *   <li>{@code persist}/{@code merge}/{@code remove} bind to the shard of the entity's key (a new root's key is
 *       generated first); {@code find}/{@code getReference} bind to the shard the id routes to (or the shard that
 *       holds it, found by asking the shards when the id does not encode the key).</li>
 *   <li>Queries run through {@link RoutingQuery}: on the bound shard when they only reach it, across all shards
 *       otherwise.</li>
 *   <li>Once bound, an operation on another shard throws {@link CrossShardUnitOfWorkException} and marks the
 *       transaction rollback-only, so nothing of it commits.</li>
 *   <li>A Spring transaction begun before binding starts on the shard's session at the moment of binding.</li>
 * </ul>
 */
final class RoutingEntityManager implements InvocationHandler {

    private final RoutingEntityManagerFactory factory;
    private final RoutedTransaction transaction = new RoutedTransaction(this);
    private final Map<String, Object> properties = new HashMap<>();
    private ShardRoutedEntityManager proxy;
    private ShardId shard;
    private EntityManager session;
    private EntityManager fanOutEntityManager;
    private EntityManager templateSession;
    private FlushModeType flushMode;
    private CacheRetrieveMode cacheRetrieveMode;
    private CacheStoreMode cacheStoreMode;
    private boolean open = true;

    private RoutingEntityManager(RoutingEntityManagerFactory factory) {
        this.factory = factory;
    }

    static ShardRoutedEntityManager create(RoutingEntityManagerFactory factory, ShardId scopeShard) {
        RoutingEntityManager handler = new RoutingEntityManager(factory);
        handler.proxy = (ShardRoutedEntityManager) Proxy.newProxyInstance(
                RoutingEntityManager.class.getClassLoader(), new Class<?>[] {ShardRoutedEntityManager.class}, handler);
        if (scopeShard != null) {
            handler.bind(scopeShard, "open an entity manager");
        }
        return handler.proxy;
    }

    // ---- state used by RoutingQuery ------------------------------------------------------------------------

    /** The bound shard, else the shard of the current scope, else null. */
    ShardId pinnedShard() {
        return shard != null ? shard : scopedShard();
    }

    /** The shard the thread is bound to for this factory (a scope or unit of work), or null. */
    ShardId scopedShard() {
        return ShardBinding.shard(factory.shards());
    }

    /** Whether a transaction is active on this entity manager. */
    boolean inTransaction() {
        return transaction.isActive();
    }

    /** Whether the active transaction may write (a read-write transaction). */
    boolean inReadWriteTransaction() {
        return transaction.isReadWrite();
    }

    /** The bound session, or null while unbound. */
    EntityManager boundSession() {
        return session;
    }

    /** The bound shard, or null while unbound. */
    ShardId boundShardOrNull() {
        return shard;
    }

    RoutingEntityManagerFactory factory() {
        return factory;
    }

    EntityManager fanOutEntityManager() {
        if (fanOutEntityManager == null) {
            fanOutEntityManager = factory.fanOut().entityManager();
        }
        return fanOutEntityManager;
    }

    /**
     * A session that only compiles queries (for their parameter metadata) while this entity manager is unbound; it
     * never runs a statement, so it holds no connection.
     */
    EntityManager templateSession() {
        if (templateSession == null) {
            templateSession = factory.openSession(factory.shards().shards().get(0));
        }
        return templateSession;
    }

    /**
     * The session of {@code target}, binding to it if unbound.
     *
     * @throws CrossShardUnitOfWorkException if bound (or scoped) to another shard ({@link ShardMovingException} if
     *                                       the scope's unit may have moved since it was resolved); the transaction
     *                                       is then marked rollback-only
     */
    EntityManager bind(ShardId target, String what) {
        ShardId pinned = pinnedShard();
        if (pinned != null && !pinned.equals(target)) {
            throw crossShard(target, what);
        }
        if (session != null) {
            return session;
        }
        EntityManager opened = transaction.isActive() && !transaction.isReadWrite()
                ? factory.openSessionForReadOnlyTransaction(target) : factory.openSession(target);
        session = opened;
        shard = target;
        if (flushMode != null) {
            opened.setFlushMode(flushMode);
        }
        if (cacheRetrieveMode != null) {
            opened.setCacheRetrieveMode(cacheRetrieveMode);
        }
        if (cacheStoreMode != null) {
            opened.setCacheStoreMode(cacheStoreMode);
        }
        properties.forEach(opened::setProperty);
        transaction.startOnBoundSession();
        return opened;
    }

    /** The session of the pinned shard, for operations that cannot fan out (native SQL, bulk updates, locks). */
    EntityManager pinnedSession(String what) {
        ShardId pinned = pinnedShard();
        if (pinned == null) {
            throw new UnboundEntityManagerException(what + " (it needs one shard: name the key with @ShardKeyParam"
                    + " on the service method, or run it inside ShardScopes.callInUnit)");
        }
        return bind(pinned, what);
    }

    /**
     * The refusal of work on {@code target} while pinned to another shard: a cross-shard access, or, when the scope was
     * resolved from a unit's key under an older map, a retryable {@link ShardMovingException} (the unit may have moved
     * since; the retry resolves the scope again and gets the definite answer).
     */
    RuntimeException crossShard(ShardId target, String what) {
        transaction.markRollbackOnly();
        ShardId pinned = pinnedShard();
        int resolvedWith = ShardBinding.mapVersion(factory.shards());
        if (target != null && resolvedWith != ShardBinding.UNKNOWN_MAP_VERSION
                && factory.shards().directory().version() != resolvedWith) {
            return new ShardMovingException("Cannot " + what + " on shard '" + target + "' in the scope pinned to shard '"
                    + pinned + "': the shard map changed since the scope resolved its unit, which may have moved. "
                    + "Nothing of this unit of work will commit; run it again", SelectionPolicy.NO_VIRTUAL_SHARD);
        }
        return ShardBinding.crossShard(pinned, target, what, ShardBinding.Outcome.NOTHING_COMMITS);
    }

    // ---- dispatch ------------------------------------------------------------------------------------------

    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        switch (name) {
            case "equals":
                return self == args[0];
            case "hashCode":
                return System.identityHashCode(self);
            case "toString":
                return "ShardRoutedEntityManager[" + (shard == null ? "not bound" : "shard " + shard) + "]";
            case "isOpen":
                return open;
            case "close":
                close();
                return null;
            case "boundShard":
                return shard;
            case "beginTransaction":
                return transaction.beginSpringTransaction((TransactionDefinition) args[0],
                        (ShardRoutedEntityManager.TransactionStarter) args[1]);
            default:
                break;
        }
        if (!open) {
            throw new IllegalStateException("This EntityManager is closed");
        }
        try {
            return dispatch(method, name, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private Object dispatch(Method method, String name, Object[] args) throws Exception {
        switch (name) {
            case "getTransaction":
                return transaction;
            case "getEntityManagerFactory":
                return factory.proxy();
            case "getCriteriaBuilder":
                return factory.sessionFactory().getCriteriaBuilder();
            case "getMetamodel":
                return factory.sessionFactory().getMetamodel();
            case "getDelegate":
                return session != null ? session : proxy;
            case "unwrap":
                return unwrap((Class<?>) args[0]);
            case "persist":
            case "merge":
                return method.invoke(bind(writeShard(args[0], name), name + " " + describe(args[0])), args);
            case "remove":
            case "refresh":
            case "lock":
            case "getLockMode":
                return method.invoke(session != null ? session : bind(writeShard(args[0], name),
                        name + " " + describe(args[0])), args);
            case "detach":
                if (session != null) {
                    session.detach(args[0]);
                }
                return null;
            case "contains":
                return session != null && session.contains(args[0]);
            case "find":
                return find(method, args);
            case "getReference":
                return getReference(method, args);
            case "flush":
            case "clear":
                return session == null ? null : method.invoke(session, args);
            case "createQuery":
                return createQuery(method, args);
            case "createNamedQuery":
                return createNamedQuery(method, args);
            case "createNativeQuery":
            case "createStoredProcedureQuery":
            case "createNamedStoredProcedureQuery":
            case "runWithConnection":
            case "callWithConnection":
                return method.invoke(pinnedSession(name), args);
            default:
                return settingOrSession(method, name, args);
        }
    }

    private Object settingOrSession(Method method, String name, Object[] args) throws Exception {
        if (session != null) {
            return method.invoke(session, args);
        }
        switch (name) {
            case "setFlushMode":
                flushMode = (FlushModeType) args[0];
                return null;
            case "getFlushMode":
                return flushMode == null ? FlushModeType.AUTO : flushMode;
            case "setCacheRetrieveMode":
                cacheRetrieveMode = (CacheRetrieveMode) args[0];
                return null;
            case "getCacheRetrieveMode":
                return cacheRetrieveMode == null ? CacheRetrieveMode.USE : cacheRetrieveMode;
            case "setCacheStoreMode":
                cacheStoreMode = (CacheStoreMode) args[0];
                return null;
            case "getCacheStoreMode":
                return cacheStoreMode == null ? CacheStoreMode.USE : cacheStoreMode;
            case "setProperty":
                properties.put((String) args[0], args[1]);
                return null;
            case "getProperties":
                Map<String, Object> all = new HashMap<>(factory.sessionFactory().getProperties());
                all.putAll(properties);
                return all;
            case "isJoinedToTransaction":
                return transaction.isActive();
            case "joinTransaction":
                return null;
            case "getEntityGraph":
                return factory.sessionFactory().findEntityGraphByName((String) args[0]);
            case "getEntityGraphs":
                return factory.sessionFactory().findEntityGraphsByType((Class<?>) args[0]);
            case "createEntityGraph":
                if (args[0] instanceof Class<?> type) {
                    return factory.sessionFactory().createEntityGraph(type);
                }
                RootGraph<?> named = factory.sessionFactory().findEntityGraphByName((String) args[0]);
                return named == null ? null : named.makeCopy(true);
            default:
                return method.invoke(pinnedSession(name), args);
        }
    }

    private Object unwrap(Class<?> type) {
        if (type == null) {
            return session != null ? session : proxy;
        }
        if (type.isInstance(proxy)) {
            return proxy;
        }
        ShardId pinned = pinnedShard();
        if (pinned != null) {
            return bind(pinned, "unwrap").unwrap(type);
        }
        if (type.isInstance(factory.sessionFactory())) {
            return factory.sessionFactory();
        }
        throw new UnboundEntityManagerException("unwrap(" + type.getName() + ") (this entity manager is not bound to"
                + " a shard yet: name the key with @ShardKeyParam, or call it after the first find or save)");
    }

    // ---- entities ------------------------------------------------------------------------------------------

    /** The shard owning {@code entity}; reference data is rejected, as only a replication may write it. */
    private ShardId writeShard(Object entity, String operation) {
        Optional<ShardId> owner = factory.shards().shardForWrite(entity);
        if (owner.isEmpty()) {
            throw new UnreplicatedReferenceDataWriteException("Cannot " + operation + " reference data "
                    + describe(entity) + " through a repository or an EntityManager: the copy on one shard would "
                    + "diverge from the others. Nothing was written. Fix: write reference data with "
                    + "ShardedSessionFactory.replicate(session -> ...), which applies it on every shard");
        }
        return owner.get();
    }

    private Object find(Method method, Object[] args) throws Exception {
        Class<?> type = args[0] instanceof Class<?> c ? c : ((RootGraph<?>) args[0]).getGraphedType().getJavaType();
        Object id = args[1];
        String what = "find " + type.getSimpleName() + "#" + id;
        Set<ShardId> candidates = factory.shards().shardsForId(type, id);
        ShardId pinned = pinnedShard();
        if (candidates.isEmpty()) {
            return null;
        }
        if (candidates.size() == 1) {
            return method.invoke(bind(candidates.iterator().next(), what), args);
        }
        boolean referenceData = factory.shards().router().routingOf(type).isEmpty();
        if (pinned != null) {
            Object found = method.invoke(bind(pinned, what), args);
            if (found != null || referenceData) {
                return found;
            }
            Optional<ShardId> holder = locate(type, id);
            if (holder.isPresent() && !holder.get().equals(pinned)) {
                throw crossShard(holder.get(), what);
            }
            return null;
        }
        if (referenceData) {
            return factory.shards().find(type, id);
        }
        Optional<ShardId> holder = locate(type, id);
        return holder.isEmpty() ? null : method.invoke(bind(holder.get(), what), args);
    }

    private Object getReference(Method method, Object[] args) throws Exception {
        if (args.length == 1) {
            return method.invoke(bind(writeShard(args[0], "getReference"), "getReference " + describe(args[0])), args);
        }
        Class<?> type = (Class<?>) args[0];
        String what = "getReference " + type.getSimpleName() + "#" + args[1];
        Set<ShardId> candidates = factory.shards().shardsForId(type, args[1]);
        ShardId pinned = pinnedShard();
        ShardId target;
        if (candidates.size() == 1) {
            target = candidates.iterator().next();
        } else if (pinned != null) {
            target = pinned;
        } else {
            target = locate(type, args[1]).orElseThrow(() -> new jakarta.persistence.EntityNotFoundException(
                    "No shard holds " + type.getSimpleName() + "#" + args[1]));
        }
        return method.invoke(bind(target, what), args);
    }

    /** Asks the shards which one holds the entity (ids that neither are nor encode the key). */
    private Optional<ShardId> locate(Class<?> type, Object id) {
        List<ShardId> holders = factory.shards().askShards(type,
                probe -> probe.find(type, id) == null ? null : (ShardId) probe.getTenantIdentifierValue());
        return holders.stream().findFirst();
    }

    // ---- queries -------------------------------------------------------------------------------------------

    private Object createQuery(Method method, Object[] args) throws Exception {
        Object source = args[0];
        if (source instanceof String hql) {
            return RoutingQuery.create(this, hql, args.length > 1 ? (Class<?>) args[1] : null);
        }
        if (source instanceof CriteriaQuery<?> criteria) {
            return RoutingQuery.create(this, criteria);
        }
        // CriteriaUpdate, CriteriaDelete, a union (CriteriaSelect) or a TypedQueryReference: one shard only
        return method.invoke(pinnedSession("createQuery(" + source.getClass().getSimpleName() + ")"), args);
    }

    private Object createNamedQuery(Method method, Object[] args) throws Exception {
        String name = (String) args[0];
        NamedObjectRepository named = factory.sessionFactory().getQueryEngine().getNamedObjectRepository();
        NamedSqmQueryMemento<?> memento = named.getSqmQueryMemento(name);
        if (memento != null) {
            return RoutingQuery.create(this, memento.getHqlString(), args.length > 1 ? (Class<?>) args[1] : null);
        }
        if (named.getNativeQueryMemento(name) == null) {
            throw new IllegalArgumentException("No query defined for that name [" + name + "]");
        }
        return method.invoke(pinnedSession("createNamedQuery(" + name + ") of a native query"), args);
    }

    private void close() {
        open = false;
        try {
            if (session != null && session.isOpen()) {
                session.close();
            }
        } finally {
            if (fanOutEntityManager != null) {
                fanOutEntityManager.close();
            }
            if (templateSession != null) {
                templateSession.close();
            }
        }
    }

    private static String describe(Object entity) {
        return org.hibernate.Hibernate.getClass(entity).getSimpleName();
    }
}
