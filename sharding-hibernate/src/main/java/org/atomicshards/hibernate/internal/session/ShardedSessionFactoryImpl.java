package org.atomicshards.hibernate.internal.session;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

import jakarta.persistence.EntityManagerFactory;
import org.atomicshards.hibernate.Access;
import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.Combine;
import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.KeyGeneration;
import org.atomicshards.hibernate.MissingShardKeyException;
import org.atomicshards.hibernate.ReferenceDataWriteException;
import org.atomicshards.hibernate.ShardConnectionLostException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardSchema;
import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.id.SequenceBlockId;
import org.atomicshards.hibernate.id.SnowflakeId;
import org.atomicshards.hibernate.id.TimeOrderedUuidId;
import org.atomicshards.hibernate.internal.boot.ShardingRuntime;
import org.atomicshards.hibernate.internal.config.ShardTimeouts;
import org.atomicshards.hibernate.internal.connection.DeadConnections;
import org.atomicshards.hibernate.internal.guard.ShardGuard;
import org.atomicshards.hibernate.internal.reshard.FenceTarget;
import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.internal.routing.DirectoryPlacement;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.SnowflakeLayout;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.internal.routing.VirtualShardPlacement;
import org.atomicshards.hibernate.spi.ShardDirectory;
import org.atomicshards.hibernate.spi.ShardRouter;
import org.hibernate.FlushMode;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.TransactionException;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.exception.JDBCConnectionException;
import org.hibernate.persister.entity.EntityPersister;

/**
 * The implementation of {@link ShardedSessionFactory}. Routing decisions read precomputed, in-memory structures
 * only; the catalog is touched only to place a new unit of a directory policy or to reserve an id block.
 */
public final class ShardedSessionFactoryImpl implements ShardedSessionFactory {

    private final SessionFactoryImplementor sessionFactory;
    private final ShardingRuntime runtime;
    private final ShardRouterImpl router;
    private final List<ShardId> shards;
    private final Map<Class<?>, IdRouting> idRoutes = new ConcurrentHashMap<>();

    private final org.atomicshards.hibernate.FanOutSettings fanOutSettings;
    private volatile org.atomicshards.hibernate.FanOutQueries fanOut;

    /** How {@code find} locates an entity type by id. */
    private enum IdRoute { KEY, KEY_IN_ID, SNOWFLAKE, ASK }

    /** The route of one entity type, with the key accessor when the id holds the key. */
    private record IdRouting(IdRoute route, MemberKey key) {
    }

    /** The shard an id routes to, or null when only asking the shards (or nobody, for an unplaced key) can tell. */
    private ShardId shardOfId(IdRouting routing, UnitRoutingImpl unit, Object id) {
        return switch (routing.route()) {
            case KEY -> unit.shardOf(id);
            case KEY_IN_ID -> unit.shardOf(routing.key().keyFromState(null, id));
            case SNOWFLAKE -> runtime.directory().shardOf(SnowflakeLayout.virtualShardOf(((Number) id).longValue()));
            case ASK -> null;
        };
    }

    public ShardedSessionFactoryImpl(SessionFactoryImplementor sessionFactory, ShardingRuntime runtime) {
        this.sessionFactory = sessionFactory;
        this.runtime = runtime;
        this.router = runtime.router();
        this.shards = runtime.config().topology().shardIds();
        try {
            this.fanOutSettings = org.atomicshards.hibernate.FanOutSettings.fromProperties(
                    sessionFactory.getProperties());
        }
        catch (IllegalArgumentException e) {
            throw new org.atomicshards.hibernate.ShardConfigurationException(e.getMessage());
        }
    }

    @Override
    public SessionFactory sessionFactory() {
        return sessionFactory;
    }

    @Override
    public <T> T unwrap(Class<T> type) {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        if (type == ShardRouter.class) {
            return type.cast(router);
        }
        if (type == ShardDirectory.class) {
            return type.cast(runtime.directory());
        }
        if (type == SessionFactory.class || type == EntityManagerFactory.class) {
            return type.cast(sessionFactory);
        }
        return sessionFactory.unwrap(type);
    }

    @Override
    public ShardRouter router() {
        return router;
    }

    @Override
    public ShardDirectory directory() {
        return runtime.directory();
    }

    @Override
    public List<ShardId> shards() {
        return shards;
    }

    @Override
    public Optional<ShardId> shardFor(Class<?> unit, Object key) {
        return Optional.ofNullable(unitOf(unit).shardOf(key));
    }

    private UnitRoutingImpl unitOf(Class<?> type) {
        UnitRoutingImpl unit = router.unitOf(type);
        if (unit == null) {
            throw new UnroutableKeyException(type.getName() + " belongs to no atomic unit: it is not an @AtomicUnit "
                    + "root or a member carrying its @ShardKey. Known units: "
                    + router.units().stream().map(u -> u.root().getSimpleName()).sorted().toList());
        }
        return unit;
    }

    private UnitRoutingImpl onlyUnit() {
        List<UnitRoutingImpl> units = router.units();
        if (units.size() != 1) {
            throw new UnroutableKeyException("This factory has " + units.size() + " atomic units "
                    + units.stream().map(u -> u.root().getSimpleName()).sorted().toList()
                    + ", so a key alone does not say which. Fix: pass the unit's root class, e.g. inUnit(Customer.class, key, ...)");
        }
        return units.get(0);
    }

    /** The shard of an existing or new unit: directory policies place a new key (round robin). */
    private ShardId shardForWork(UnitRoutingImpl unit, Object key) {
        return unit.placement().placeNew(unit.checkKey(key));
    }

    @Override
    public void inUnit(Class<?> unit, Object key, Consumer<Session> work) {
        callInUnit(unit, key, session -> {
            work.accept(session);
            return null;
        });
    }

    @Override
    public <R> R callInUnit(Class<?> unit, Object key, Function<Session, R> work) {
        UnitRoutingImpl routing = unitOf(unit);
        return runtime.unitRetry().call(() -> onShard(shardForWork(routing, key), work,
                "unit " + unit.getSimpleName() + " key " + key, fenceTarget(routing, key)));
    }

    /** What the unit of work of {@code key} fences on its shard: its virtual shard (null for a new unplaced key). */
    private static FenceTarget fenceTarget(UnitRoutingImpl unit, Object key) {
        Object checked = unit.checkKey(key);
        int bucket = unit.placement().virtualShardOf(checked);
        return bucket < 0 ? null : new FenceTarget(bucket, unit.unitName(), ShardKeys.text(checked));
    }

    @Override
    public org.atomicshards.hibernate.admin.ShardAdmin admin() {
        return runtime.admin();
    }

    @Override
    public void inUnit(Object key, Consumer<Session> work) {
        inUnit(onlyUnit().root(), key, work);
    }

    @Override
    public <R> R callInUnit(Object key, Function<Session, R> work) {
        return callInUnit(onlyUnit().root(), key, work);
    }

    /** Runs {@code work} in the unit of work of {@code shard}: joins the current one or opens one. */
    private <R> R onShard(ShardId shard, Function<Session, R> work, String what) {
        return onShard(shard, work, what, null);
    }

    /**
     * As {@link #onShard(ShardId, Function, String)}; a new unit of work first passes the shard's ownership fence
     * for {@code fence} (null: none), inside its transaction and before {@code work} runs.
     */
    private <R> R onShard(ShardId shard, Function<Session, R> work, String what, FenceTarget fence) {
        UnitScope current = UnitScope.current(this);
        if (current != null) {
            if (!current.shard().equals(shard)) {
                throw new CrossShardUnitOfWorkException("Cannot run " + what + " on shard '" + shard
                        + "' inside the unit of work running on shard '" + current.shard() + "': a unit of work is one "
                        + "shard and one local transaction. Nothing was written by this call. Fix: run it after the "
                        + "current unit of work commits (a saga for cross-unit workflows)");
            }
            return work.apply(current.session());
        }
        try (Session session = openSession(shard)) {
            UnitScope previous = UnitScope.enter(new UnitScope(this, shard, session));
            Transaction transaction = session.getTransaction();
            boolean committing = false;
            try {
                begin(transaction);
                runtime.fence().enter(session, shard, fence);
                R result = work.apply(session);
                if (session.getHibernateFlushMode() != FlushMode.MANUAL) {
                    session.flush(); // the guards run here; a rejection surfaces through translated()
                }
                committing = true;
                transaction.commit();
                return result;
            } catch (RuntimeException e) {
                rollbackAfterFailure(shard, session, transaction, e);
                throw translated(shard, e, committing);
            } finally {
                UnitScope.restore(previous);
            }
        }
    }

    /**
     * Begins the unit's transaction with the transaction timeout: every statement gets the time left as its JDBC
     * query timeout, and none starts once it has run out.
     */
    private void begin(Transaction transaction) {
        transaction.setTimeout(ShardTimeouts.seconds(runtime.config().timeouts().transactionTimeoutMillis()));
        transaction.begin();
    }

    /**
     * Rolls back after a failure. A dead connection is aborted instead (evicted from the pool, socket closed): some
     * drivers keep a connection open after a socket timeout, and a rollback sent into a silent network would wait
     * for the socket timeout a second time.
     */
    private void rollbackAfterFailure(ShardId shard, Session session, Transaction transaction,
                                      RuntimeException failure) {
        if (DeadConnections.isDeadConnection(failure)) {
            var logical = session.unwrap(SharedSessionContractImplementor.class).getJdbcCoordinator()
                    .getLogicalConnection();
            if (logical.isOpen() && logical.isPhysicallyConnected()) {
                runtime.pools().abort(shard, logical.getPhysicalConnection());
            }
        }
        try {
            if (transaction.isActive()) {
                transaction.rollback();
            }
        } catch (RuntimeException rollbackFailure) {
            failure.addSuppressed(rollbackFailure);
        }
    }

    /**
     * A lost connection to the shard's database (a dead-connection SQL state anywhere in the causes, whatever
     * Hibernate wrapped it in, e.g. a failed rollback) becomes a {@link ShardConnectionLostException} naming the
     * shard, and the shard's pool retires its other connections; a transaction that ran out of time becomes a
     * {@link ShardUnavailableException} naming the shard; our own exceptions surface as themselves; anything else is
     * rethrown unchanged.
     *
     * @param committing whether the failure happened in the commit itself (its outcome is then unknown)
     */
    private RuntimeException translated(ShardId shard, RuntimeException e, boolean committing) {
        Throwable dead = deadConnectionCause(e);
        if (dead != null) {
            runtime.pools().retireConnections(shard);
            return new ShardConnectionLostException("Shard '" + shard + "' is unavailable: its database connection "
                    + "was lost (" + dead.getMessage() + "). " + (committing
                    ? "It was lost during the commit: the unit of work may or may not have been committed; check"
                    + " before running it again. "
                    : "Nothing was committed; the unit of work can be run again (the shard's pool now opens fresh"
                    + " connections). ")
                    + "Units of work on other shards are not affected", shard, committing, e);
        }
        RuntimeException ours = unwrapped(e);
        if (ours != e) {
            return ours;
        }
        if (e instanceof TransactionException && String.valueOf(e.getMessage()).contains("timeout expired")) {
            return new ShardUnavailableException("Shard '" + shard + "' did not finish the unit of work within "
                    + ShardingSettings.TRANSACTION_TIMEOUT + " = " + runtime.config().timeouts().transactionTimeoutMillis()
                    + " ms. Nothing was committed. Units of work on other shards are not affected. Fix: raise "
                    + ShardingSettings.TRANSACTION_TIMEOUT + " if the work is just long", e);
        }
        return e;
    }

    private RuntimeException translated(ShardId shard, RuntimeException e) {
        return translated(shard, e, false);
    }

    /** The exception in {@code e}'s causes that says the connection died, or null. */
    private static Throwable deadConnectionCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JDBCConnectionException || t instanceof ShardConnectionLostException
                    || (t instanceof SQLException && DeadConnections.isDeadConnection(t))) {
                Throwable cause = t.getCause();
                return t instanceof SQLException || cause == null ? t : cause;
            }
        }
        for (Throwable suppressed : e.getSuppressed()) {
            if (DeadConnections.isDeadConnection(suppressed)) {
                return deadConnectionCause(suppressed);
            }
        }
        return null;
    }

    /** Our own exceptions surface as themselves, even when Hibernate or JPA wrapped them during a flush. */
    private static RuntimeException unwrapped(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof AtomicShardsException ours) {
                return ours;
            }
        }
        return e;
    }

    @Override
    public void persist(Object entity) {
        Class<?> type = entity.getClass();
        if (router.isReferenceData(type)) {
            replicate(session -> session.merge(entity));
            return;
        }
        runtime.unitRetry().call(() -> {
            ShardId shard = writeShard(entity, type);
            return onShard(shard, session -> {
                session.persist(entity);
                return null;
            }, "persist of " + type.getSimpleName(), entityFence(entity, type));
        });
    }

    /** The fence of the unit {@code entity} belongs to (its key is known once {@link #writeShard} ran). */
    private FenceTarget entityFence(Object entity, Class<?> type) {
        UnitRoutingImpl unit = unitOf(type);
        MemberKey memberKey = unit.memberKey(type);
        if (memberKey == null) {
            memberKey = unit.memberKey(sessionFactory.getMappingMetamodel().getEntityDescriptor(type).getMappedClass());
        }
        Object key = memberKey.keyOf(entity);
        return key == null ? null : fenceTarget(unit, key);
    }

    @Override
    public Optional<ShardId> shardForWrite(Object entity) {
        Class<?> type = org.hibernate.Hibernate.getClass(entity);
        if (router.isReferenceData(type)) {
            return Optional.empty();
        }
        return Optional.of(writeShard(entity, type));
    }

    /** The shard owning {@code entity}: a new root gets its generated key and a new directory key is placed. */
    private ShardId writeShard(Object entity, Class<?> type) {
        UnitRoutingImpl unit = unitOf(type);
        MemberKey memberKey = unit.memberKey(type);
        if (memberKey == null) {
            memberKey = unit.memberKey(sessionFactory.getMappingMetamodel().getEntityDescriptor(type).getMappedClass());
        }
        EntityPersister persister = memberKey.persister();
        Object key = memberKey.keyOf(entity);
        boolean isRoot = memberKey.kind() != MemberKey.Kind.ROOT_ASSOCIATION && unit.root().isAssignableFrom(type);
        if (isRoot) {
            if (key == null && memberKey.assignable()) {
                UnitScope current = UnitScope.current(this);
                key = runtime.keyGenerators().newKey(keyGeneration(unit), persister.getRootEntityName(),
                        unit.keyType(), current == null ? null : current.shard());
                if (key != null) {
                    memberKey.assign(entity, key);
                }
            }
            return unit.placement().placeNew(unit.checkKey(key));
        }
        ShardId shard = unit.shardOf(key);
        if (shard == null) {
            throw new UnroutableKeyException("Cannot persist " + type.getSimpleName() + ": unit "
                    + unit.root().getSimpleName() + " with key " + key + " has no placement in the shard directory."
                    + " Nothing was written. Fix: persist the " + unit.root().getSimpleName() + " first");
        }
        return shard;
    }

    /** The policy's key generation, or the one declared by the root's id generator annotation. */
    private static KeyGeneration keyGeneration(UnitRoutingImpl unit) {
        if (unit.policy().keyGeneration() != KeyGeneration.APPLICATION) {
            return unit.policy().keyGeneration();
        }
        return declaredGeneration(unit.root()).orElse(KeyGeneration.APPLICATION);
    }

    private static Optional<KeyGeneration> declaredGeneration(Class<?> root) {
        for (Class<?> c = root; c != null && c != Object.class; c = c.getSuperclass()) {
            for (var field : c.getDeclaredFields()) {
                if (field.isAnnotationPresent(SequenceBlockId.class)) {
                    return Optional.of(KeyGeneration.SEQUENCE);
                }
                if (field.isAnnotationPresent(SnowflakeId.class)) {
                    return Optional.of(KeyGeneration.SNOWFLAKE);
                }
                if (field.isAnnotationPresent(TimeOrderedUuidId.class)) {
                    return Optional.of(KeyGeneration.TIME_ORDERED_UUID);
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public <T> T find(Class<T> type, Object id) {
        if (id == null) {
            throw new MissingShardKeyException("Cannot find " + type.getSimpleName()
                    + " by a null id");
        }
        if (router.isReferenceData(type)) {
            UnitScope current = UnitScope.current(this);
            if (current != null) {
                return current.session().find(type, id);
            }
            return readOnShard(shards.get(0), session -> session.find(type, id));
        }
        UnitRoutingImpl unit = unitOf(type);
        IdRouting routing = idRoute(type, unit);
        ShardId shard = shardOfId(routing, unit, id);
        if (shard == null && routing.route() != IdRoute.ASK) {
            return null; // a directory policy never placed this key: no shard holds it
        }
        if (shard != null) {
            UnitScope current = UnitScope.current(this);
            if (current != null) {
                return onShard(shard, session -> session.find(type, id), "find of " + type.getSimpleName() + "#" + id);
            }
            FenceTarget fence = routing.route() == IdRoute.SNOWFLAKE
                    ? new FenceTarget(SnowflakeLayout.virtualShardOf(((Number) id).longValue()), unit.unitName(), "")
                    : routing.route() == IdRoute.KEY ? fenceTarget(unit, id)
                    : fenceTarget(unit, routing.key().keyFromState(null, id));
            return runtime.unitRetry().call(() -> {
                ShardId owner = shardOfId(routing, unit, id);
                return readOnShard(owner, session -> {
                    T entity = session.find(type, id);
                    runtime.fence().confirmRead(session, owner, fence);
                    return entity;
                });
            });
        }
        List<T> found = ask(unit, session -> session.find(type, id), Combine.FIRST);
        return found.isEmpty() ? null : found.get(0);
    }

    @Override
    public Set<ShardId> shardsForId(Class<?> type, Object id) {
        if (id == null) {
            throw new MissingShardKeyException("Cannot route " + type.getSimpleName()
                    + " by a null id");
        }
        if (router.isReferenceData(type)) {
            return Set.copyOf(shards);
        }
        UnitRoutingImpl unit = unitOf(type);
        IdRouting routing = idRoute(type, unit);
        ShardId shard = shardOfId(routing, unit, id);
        if (shard != null) {
            return Set.of(shard);
        }
        return routing.route() != IdRoute.ASK ? Set.of() : Set.copyOf(runtime.directory().owningShards());
    }

    private IdRouting idRoute(Class<?> type, UnitRoutingImpl unit) {
        return idRoutes.computeIfAbsent(type, t -> {
            EntityPersister persister = sessionFactory.getMappingMetamodel().getEntityDescriptor(t);
            MemberKey key = unit.memberKey(persister.getMappedClass());
            if (key != null && key.kind() == MemberKey.Kind.ID) {
                return new IdRouting(IdRoute.KEY, key);
            }
            if (key != null && key.kind() == MemberKey.Kind.IN_ID) {
                return new IdRouting(IdRoute.KEY_IN_ID, key);
            }
            String idName = persister.getIdentifierPropertyName();
            for (Class<?> c = t; c != null && c != Object.class; c = c.getSuperclass()) {
                for (var field : c.getDeclaredFields()) {
                    if (field.getName().equals(idName) && field.isAnnotationPresent(SnowflakeId.class)
                            && unit.placement() instanceof VirtualShardPlacement) {
                        return new IdRouting(IdRoute.SNOWFLAKE, key);
                    }
                }
            }
            return new IdRouting(IdRoute.ASK, key);
        });
    }

    private <R> R readOnShard(ShardId shard, Function<Session, R> work) {
        try (Session session = openReadOnlySession(shard)) {
            Transaction transaction = session.getTransaction();
            R result;
            try {
                begin(transaction);
                result = work.apply(session);
            } catch (RuntimeException e) {
                rollbackAfterFailure(shard, session, transaction, e);
                throw translated(shard, e);
            }
            transaction.rollback();
            return result;
        } catch (RuntimeException e) {
            throw translated(shard, e);
        }
    }

    @Override
    public <R> List<R> askShards(Class<?> unit, Function<Session, R> probe) {
        UnitRoutingImpl routing = unitOf(unit);
        return ask(routing, probe, routing.policy().combine());
    }

    private <R> List<R> ask(UnitRoutingImpl unit, Function<Session, R> probe, Combine combine) {
        if (UnitScope.current(this) != null) {
            throw new CrossShardUnitOfWorkException("Cannot ask every shard from inside a unit of work, which is "
                    + "bound to one shard. Fix: ask before or after the unit of work");
        }
        List<ShardId> candidates = runtime.directory().owningShards();
        if (unit.policy().access() == Access.SEQUENTIAL) {
            List<R> results = new ArrayList<>();
            for (ShardId shard : candidates) {
                R result = readOnShard(shard, probe);
                if (result != null) {
                    results.add(result);
                    if (combine == Combine.FIRST) {
                        break;
                    }
                }
            }
            return results;
        }
        return askInParallel(candidates, probe, combine);
    }

    private <R> List<R> askInParallel(List<ShardId> candidates, Function<Session, R> probe, Combine combine) {
        CompletionService<R> completion = new ExecutorCompletionService<>(runtime.executor());
        Map<Future<R>, ShardId> futures = new LinkedHashMap<>();
        for (ShardId shard : candidates) {
            futures.put(completion.submit(() -> readOnShard(shard, probe)), shard);
        }
        Map<ShardId, R> byShard = new LinkedHashMap<>();
        try {
            for (int i = 0; i < candidates.size(); i++) {
                Future<R> done = completion.take();
                R result = done.get();
                if (result != null) {
                    byShard.put(futures.get(done), result);
                    if (combine == Combine.FIRST) {
                        break;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AtomicShardsException("Interrupted while asking shards " + candidates, e);
        } catch (ExecutionException | CancellationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof RuntimeException runtimeException) {
                throw unwrapped(runtimeException);
            }
            throw new AtomicShardsException("Asking shards " + candidates + " failed: " + cause.getMessage(), cause);
        } finally {
            futures.keySet().forEach(f -> f.cancel(true));
        }
        List<R> ordered = new ArrayList<>();
        for (ShardId shard : candidates) {
            if (byShard.containsKey(shard)) {
                ordered.add(byShard.get(shard));
            }
        }
        return ordered;
    }

    @Override
    public ShardId place(Class<?> unit, Object key, ShardId shard) {
        UnitRoutingImpl routing = unitOf(unit);
        runtime.config().topology().shard(shard);
        if (!(routing.placement() instanceof DirectoryPlacement directoryPlacement)) {
            throw new UnroutableKeyException("Unit " + routing.root().getSimpleName() + " uses a "
                    + routing.policy().selection() + " policy, which computes the shard from the key; only LOOKUP "
                    + "and ROUND_ROBIN units are placed explicitly");
        }
        Object checked = routing.checkKey(key);
        ShardId existing = directoryPlacement.shardOf(checked);
        return existing != null ? existing : directoryPlacement.placeOn(checked, shard);
    }

    @Override
    public Session openSession(Class<?> unit, Object key) {
        return openSession(shardForWork(unitOf(unit), key));
    }

    @Override
    public Session openSession(ShardId shard) {
        runtime.config().topology().shard(shard);
        return sessionFactory.withOptions().tenantIdentifier(shard).openSession();
    }

    @Override
    public Session openReadOnlySession(ShardId shard) {
        runtime.config().topology().shard(shard);
        Session session = sessionFactory.withOptions().tenantIdentifier(shard).readOnly(true).openSession();
        session.setDefaultReadOnly(true);
        return session;
    }

    @Override
    public void replicate(Consumer<Session> work) {
        if (UnitScope.current(this) != null) {
            throw new CrossShardUnitOfWorkException("Cannot replicate reference data from inside a unit of work, "
                    + "which is bound to one shard. Fix: replicate before or after the unit of work");
        }
        Map<ShardId, Session> sessions = new LinkedHashMap<>();
        try {
            ShardGuard.replicating(() -> {
                for (ShardId shard : shards) {
                    Session session = openSession(shard);
                    sessions.put(shard, session);
                    session.beginTransaction();
                    work.accept(session);
                    session.flush();
                }
            });
        } catch (RuntimeException e) {
            sessions.values().forEach(ShardedSessionFactoryImpl::rollbackQuietly);
            Map<ShardId, String> failed = new LinkedHashMap<>();
            ShardId failing = sessions.isEmpty() ? shards.get(0) : new ArrayList<>(sessions.keySet()).get(sessions.size() - 1);
            for (ShardId shard : shards) {
                failed.put(shard, shard.equals(failing) ? String.valueOf(unwrapped(e).getMessage())
                        : "rolled back because shard '" + failing + "' failed");
            }
            throw new ReferenceDataWriteException(List.of(), failed, unwrapped(e));
        }
        List<ShardId> applied = new ArrayList<>();
        Map<ShardId, String> failed = new LinkedHashMap<>();
        RuntimeException firstFailure = null;
        for (Map.Entry<ShardId, Session> entry : sessions.entrySet()) {
            try (Session session = entry.getValue()) {
                if (firstFailure == null) {
                    session.getTransaction().commit();
                    applied.add(entry.getKey());
                } else {
                    session.getTransaction().rollback();
                    failed.put(entry.getKey(), "not committed because an earlier shard's commit failed");
                }
            } catch (RuntimeException e) {
                firstFailure = e;
                failed.put(entry.getKey(), String.valueOf(e.getMessage()));
            }
        }
        if (firstFailure != null) {
            throw new ReferenceDataWriteException(applied, failed, firstFailure);
        }
    }

    private static void rollbackQuietly(Session session) {
        try {
            if (session.getTransaction().isActive()) {
                session.getTransaction().rollback();
            }
        } catch (RuntimeException ignored) {
            // the write already failed; the rollback of an unusable connection adds nothing to report
        } finally {
            session.close();
        }
    }

    @Override
    public ShardSchema schema() {
        return runtime.schema();
    }

    @Override
    public org.atomicshards.hibernate.FanOutQueries fanOut() {
        org.atomicshards.hibernate.FanOutQueries queries = fanOut;
        if (queries == null) {
            synchronized (this) {
                queries = fanOut;
                if (queries == null) {
                    queries = org.atomicshards.hibernate.FanOutQueries.create(sessionFactory, router, fanOutSettings);
                    fanOut = queries;
                }
            }
        }
        return queries;
    }

    /** Closes Hibernate's factory, which stops the fan-out executor on the way ({@link #closeFanOut()}). */
    @Override
    public void close() {
        sessionFactory.close();
    }

    /**
     * Stops the fan-out executor, if one was started; idempotent. Called while Hibernate's factory closes, however it
     * is closed (this facade, {@code EntityManagerFactory.close()}, a Spring context shutting down), so no
     * {@code atomic-shards-fanout-N} thread outlives the factory.
     */
    public void closeFanOut() {
        org.atomicshards.hibernate.FanOutQueries queries = fanOut;
        if (queries != null) {
            queries.close();
        }
    }
}
