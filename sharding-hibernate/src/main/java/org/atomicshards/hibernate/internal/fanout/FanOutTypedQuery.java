package org.atomicshards.hibernate.internal.fanout;

import java.time.Duration;
import java.util.Calendar;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import jakarta.persistence.CacheRetrieveMode;
import jakarta.persistence.CacheStoreMode;
import jakarta.persistence.FlushModeType;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Parameter;
import jakarta.persistence.TemporalType;
import jakarta.persistence.TypedQuery;
import org.atomicshards.hibernate.ShardedQuery;
import org.atomicshards.hibernate.UnboundEntityManagerException;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.query.sqm.tree.expression.JpaCriteriaParameter;
import org.hibernate.query.sqm.tree.expression.SqmJpaCriteriaParameterWrapper;
import org.hibernate.query.sqm.tree.expression.SqmParameter;
import org.hibernate.query.sqm.tree.expression.ValueBindJpaCriteriaParameter;

/**
 * The JPA {@link TypedQuery} view of a fan-out query, returned by the unbound entity manager's
 * {@code createQuery}. Paging, parameters, hints (timeout, fetch size, {@code org.atomicshards.executionPolicy})
 * and the three ways to read results are those of the {@link ShardedQuery} underneath
 * ({@link #unwrap(Class) unwrap(ShardedQuery.class)} gives it, for the failed shards of a PARTIAL query).
 */
final class FanOutTypedQuery<T> implements TypedQuery<T> {

    private final ShardedQueryImpl<T> query;
    private final ParameterBindings bindings;
    private FlushModeType flushMode = FlushModeType.AUTO;
    private CacheRetrieveMode cacheRetrieveMode = CacheRetrieveMode.USE;
    private CacheStoreMode cacheStoreMode = CacheStoreMode.USE;

    FanOutTypedQuery(ShardedQueryImpl<T> query) {
        this.query = query;
        this.bindings = query.bindings();
    }

    @Override
    public List<T> getResultList() {
        return query.getResultList();
    }

    @Override
    public Stream<T> getResultStream() {
        return query.getResultStream();
    }

    @Override
    public T getSingleResult() {
        return query.getSingleResult();
    }

    @Override
    public T getSingleResultOrNull() {
        return query.getSingleResultOrNull();
    }

    @Override
    public int executeUpdate() {
        throw new UnboundEntityManagerException("createQuery(...).executeUpdate()");
    }

    @Override
    public TypedQuery<T> setMaxResults(int maxResult) {
        query.setMaxResults(maxResult);
        return this;
    }

    @Override
    public int getMaxResults() {
        return query.maxResults() < 0 ? Integer.MAX_VALUE : query.maxResults();
    }

    @Override
    public TypedQuery<T> setFirstResult(int startPosition) {
        query.setFirstResult(startPosition);
        return this;
    }

    @Override
    public int getFirstResult() {
        return query.firstResult();
    }

    @Override
    public TypedQuery<T> setHint(String hintName, Object value) {
        query.setHint(hintName, value);
        return this;
    }

    @Override
    public Map<String, Object> getHints() {
        return query.hints();
    }

    @Override
    public <P> TypedQuery<T> setParameter(Parameter<P> param, P value) {
        query.setParameter(param, value);
        return this;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes", "deprecation"})
    public TypedQuery<T> setParameter(Parameter<Calendar> param, Calendar value, TemporalType temporalType) {
        query.setParameter((Parameter) param, value);
        return this;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes", "deprecation"})
    public TypedQuery<T> setParameter(Parameter<Date> param, Date value, TemporalType temporalType) {
        query.setParameter((Parameter) param, value);
        return this;
    }

    @Override
    public TypedQuery<T> setParameter(String name, Object value) {
        query.setParameter(name, value);
        return this;
    }

    @Override
    @SuppressWarnings("deprecation") // JPA's temporal overloads, part of the interface
    public TypedQuery<T> setParameter(String name, Calendar value, TemporalType temporalType) {
        query.setParameter(name, value);
        return this;
    }

    @Override
    @SuppressWarnings("deprecation") // JPA's temporal overloads, part of the interface
    public TypedQuery<T> setParameter(String name, Date value, TemporalType temporalType) {
        query.setParameter(name, value);
        return this;
    }

    @Override
    public TypedQuery<T> setParameter(int position, Object value) {
        query.setParameter(position, value);
        return this;
    }

    @Override
    @SuppressWarnings("deprecation") // JPA's temporal overloads, part of the interface
    public TypedQuery<T> setParameter(int position, Calendar value, TemporalType temporalType) {
        query.setParameter(position, value);
        return this;
    }

    @Override
    @SuppressWarnings("deprecation") // JPA's temporal overloads, part of the interface
    public TypedQuery<T> setParameter(int position, Date value, TemporalType temporalType) {
        query.setParameter(position, value);
        return this;
    }

    @Override
    public Set<Parameter<?>> getParameters() {
        Set<Parameter<?>> parameters = new LinkedHashSet<>();
        for (SqmParameter<?> parameter : query.statement().getSqmParameters()) {
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
        return bindings.valueOf(param) != ParameterBindings.UNBOUND;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <P> P getParameterValue(Parameter<P> param) {
        return (P) bound(bindings.valueOf(param), String.valueOf(param));
    }

    @Override
    public Object getParameterValue(String name) {
        return bound(bindings.valueOf(name), name);
    }

    @Override
    public Object getParameterValue(int position) {
        return bound(bindings.valueOf(position), "?" + position);
    }

    private static Object bound(Object value, String parameter) {
        if (value == ParameterBindings.UNBOUND) {
            throw new IllegalStateException("The parameter " + parameter + " is not bound");
        }
        return value;
    }

    @Override
    public TypedQuery<T> setFlushMode(FlushModeType flushMode) {
        // Nothing to flush: the fan-out entity manager manages no entity.
        this.flushMode = flushMode;
        return this;
    }

    @Override
    public FlushModeType getFlushMode() {
        return flushMode;
    }

    @Override
    public TypedQuery<T> setLockMode(LockModeType lockMode) {
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
    public TypedQuery<T> setCacheRetrieveMode(CacheRetrieveMode cacheRetrieveMode) {
        this.cacheRetrieveMode = cacheRetrieveMode;
        query.setHint("jakarta.persistence.cache.retrieveMode", cacheRetrieveMode);
        return this;
    }

    @Override
    public TypedQuery<T> setCacheStoreMode(CacheStoreMode cacheStoreMode) {
        this.cacheStoreMode = cacheStoreMode;
        query.setHint("jakarta.persistence.cache.storeMode", cacheStoreMode);
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

    @Override
    public TypedQuery<T> setTimeout(Integer timeout) {
        if (timeout != null) {
            query.setTimeout(Duration.ofMillis(timeout));
        }
        return this;
    }

    @Override
    public Integer getTimeout() {
        return (int) Math.min(Integer.MAX_VALUE, query.timeout().toMillis());
    }

    @Override
    public <X> X unwrap(Class<X> type) {
        if (type.isInstance(query)) {
            return type.cast(query);
        }
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new jakarta.persistence.PersistenceException("A fan-out query cannot be unwrapped as "
                + type.getName() + "; unwrap it as " + ShardedQuery.class.getName());
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
