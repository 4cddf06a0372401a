package org.atomicshards.hibernate.internal.fanout;

import java.time.Duration;
import java.util.Calendar;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import jakarta.persistence.CacheRetrieveMode;
import jakarta.persistence.CacheStoreMode;
import jakarta.persistence.FlushModeType;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Parameter;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.TemporalType;
import org.atomicshards.hibernate.ShardedQuery;
import org.atomicshards.hibernate.UnboundEntityManagerException;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.query.sqm.tree.expression.JpaCriteriaParameter;
import org.hibernate.query.sqm.tree.expression.SqmJpaCriteriaParameterWrapper;
import org.hibernate.query.sqm.tree.expression.SqmParameter;
import org.hibernate.query.sqm.tree.expression.ValueBindJpaCriteriaParameter;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * The part of the JPA {@link jakarta.persistence.TypedQuery} contract a fan-out query adds to its
 * {@link ShardedQuery} one: the temporal overloads (bound as plain values), parameter introspection, the JPA views
 * of paging, hints and timeout, and the modes a query bound to no session accepts (flush and cache modes are
 * recorded, the cache modes passed to each shard as hints; a lock is refused). {@code executeUpdate} is refused:
 * writes run in a unit of work.
 */
abstract class JpaQuerySupport<T> implements FanOutQuery<T> {

    private FlushModeType flushMode = FlushModeType.AUTO;
    private CacheRetrieveMode cacheRetrieveMode = CacheRetrieveMode.USE;
    private CacheStoreMode cacheStoreMode = CacheStoreMode.USE;

    abstract SqmSelectStatement<T> statement();

    abstract ParameterBindings bindings();

    abstract int firstResult();

    /** The maximum number of rows, negative for none. */
    abstract int maxResults();

    abstract Duration timeout();

    /** The hints in effect, the fan-out's own settings included. */
    abstract Map<String, Object> hints();

    @Override
    public int executeUpdate() {
        throw new UnboundEntityManagerException("createQuery(...).executeUpdate()");
    }

    @Override
    public int getMaxResults() {
        return maxResults() < 0 ? Integer.MAX_VALUE : maxResults();
    }

    @Override
    public int getFirstResult() {
        return firstResult();
    }

    @Override
    public Map<String, Object> getHints() {
        return hints();
    }

    // ---- JPA's temporal overloads: a fan-out binds the value as it is

    @Override
    @SuppressWarnings({"unchecked", "rawtypes", "deprecation"})
    public FanOutQuery<T> setParameter(Parameter<Calendar> param, Calendar value, TemporalType temporalType) {
        return setParameter((Parameter) param, value);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes", "deprecation"})
    public FanOutQuery<T> setParameter(Parameter<Date> param, Date value, TemporalType temporalType) {
        return setParameter((Parameter) param, value);
    }

    @Override
    @SuppressWarnings("deprecation")
    public FanOutQuery<T> setParameter(String name, Calendar value, TemporalType temporalType) {
        return setParameter(name, value);
    }

    @Override
    @SuppressWarnings("deprecation")
    public FanOutQuery<T> setParameter(String name, Date value, TemporalType temporalType) {
        return setParameter(name, value);
    }

    @Override
    @SuppressWarnings("deprecation")
    public FanOutQuery<T> setParameter(int position, Calendar value, TemporalType temporalType) {
        return setParameter(position, value);
    }

    @Override
    @SuppressWarnings("deprecation")
    public FanOutQuery<T> setParameter(int position, Date value, TemporalType temporalType) {
        return setParameter(position, value);
    }

    // ---- parameter introspection

    @Override
    public Set<Parameter<?>> getParameters() {
        Set<Parameter<?>> parameters = new LinkedHashSet<>();
        for (SqmParameter<?> parameter : statement().getSqmParameters()) {
            if (parameter instanceof ValueBindJpaCriteriaParameter<?>) {
                continue;
            }
            if (parameter instanceof SqmJpaCriteriaParameterWrapper<?> wrapper) {
                parameters.add(wrapper.getJpaCriteriaParameter());
            }
            else if (parameter instanceof JpaCriteriaParameter<?> criteriaParameter) {
                parameters.add(criteriaParameter);
            }
            else {
                parameters.add(new DeclaredParameter<>(parameter.getName(), parameter.getPosition(),
                        parameter.getParameterType()));
            }
        }
        return parameters;
    }

    @Override
    public Parameter<?> getParameter(String name) {
        return getParameters().stream().filter(p -> name.equals(p.getName())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("The query has no parameter named '" + name + "'"));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <P> Parameter<P> getParameter(String name, Class<P> type) {
        return (Parameter<P>) getParameter(name);
    }

    @Override
    public Parameter<?> getParameter(int position) {
        return getParameters().stream().filter(p -> Integer.valueOf(position).equals(p.getPosition())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("The query has no parameter at position "
                        + position));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <P> Parameter<P> getParameter(int position, Class<P> type) {
        return (Parameter<P>) getParameter(position);
    }

    @Override
    public boolean isBound(Parameter<?> param) {
        return bindings().valueOf(param) != ParameterBindings.UNBOUND;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <P> P getParameterValue(Parameter<P> param) {
        return (P) bound(bindings().valueOf(param), String.valueOf(param));
    }

    @Override
    public Object getParameterValue(String name) {
        return bound(bindings().valueOf(name), name);
    }

    @Override
    public Object getParameterValue(int position) {
        return bound(bindings().valueOf(position), "?" + position);
    }

    private static Object bound(Object value, String parameter) {
        if (value == ParameterBindings.UNBOUND) {
            throw new IllegalStateException("The parameter " + parameter + " is not bound");
        }
        return value;
    }

    // ---- modes

    @Override
    public FanOutQuery<T> setFlushMode(FlushModeType flushMode) {
        // Nothing to flush: the fan-out entity manager manages no entity.
        this.flushMode = flushMode;
        return this;
    }

    @Override
    public FlushModeType getFlushMode() {
        return flushMode;
    }

    @Override
    public FanOutQuery<T> setLockMode(LockModeType lockMode) {
        if (lockMode != null && lockMode != LockModeType.NONE) {
            throw new UnsupportedFanOutQueryException("the lock mode " + lockMode,
                    "Locks are taken in a unit of work on one shard, not across shards.");
        }
        return this;
    }

    @Override
    public LockModeType getLockMode() {
        return LockModeType.NONE;
    }

    @Override
    public FanOutQuery<T> setCacheRetrieveMode(CacheRetrieveMode cacheRetrieveMode) {
        this.cacheRetrieveMode = cacheRetrieveMode;
        setHint("jakarta.persistence.cache.retrieveMode", cacheRetrieveMode);
        return this;
    }

    @Override
    public FanOutQuery<T> setCacheStoreMode(CacheStoreMode cacheStoreMode) {
        this.cacheStoreMode = cacheStoreMode;
        setHint("jakarta.persistence.cache.storeMode", cacheStoreMode);
        return this;
    }

    @Override
    public CacheRetrieveMode getCacheRetrieveMode() {
        return cacheRetrieveMode;
    }

    @Override
    public CacheStoreMode getCacheStoreMode() {
        return cacheStoreMode;
    }

    /** JPA's timeout in milliseconds; null leaves the fan-out timeout as it is. */
    @Override
    public FanOutQuery<T> setTimeout(Integer timeout) {
        if (timeout != null) {
            setTimeout(Duration.ofMillis(timeout));
        }
        return this;
    }

    @Override
    public Integer getTimeout() {
        return (int) Math.min(Integer.MAX_VALUE, timeout().toMillis());
    }

    @Override
    public <X> X unwrap(Class<X> type) {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new PersistenceException("A fan-out query cannot be unwrapped as " + type.getName()
                + "; unwrap it as " + ShardedQuery.class.getName());
    }

    /** A named or positional parameter of an HQL query, as JPA describes it. */
    private record DeclaredParameter<P>(String name, Integer position, Class<P> type) implements Parameter<P> {
        @Override
        public String getName() {
            return name;
        }

        @Override
        public Integer getPosition() {
            return position;
        }

        @Override
        public Class<P> getParameterType() {
            return type;
        }
    }
}
