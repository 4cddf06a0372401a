package org.atomicshards.hibernate.internal.fanout;

import java.util.List;
import java.util.stream.Stream;

import jakarta.persistence.Parameter;
import jakarta.persistence.TypedQuery;
import org.atomicshards.hibernate.ShardedQuery;

/**
 * A fan-out query in both of the forms callers meet it: the {@link ShardedQuery} of {@code FanOutQueries} and the
 * JPA {@link TypedQuery} of the unbound entity manager. One object, so the methods the two interfaces share are
 * implemented once (the setters return this object, typed as both).
 */
interface FanOutQuery<T> extends ShardedQuery<T>, TypedQuery<T> {

    @Override
    FanOutQuery<T> setFirstResult(int firstResult);

    @Override
    FanOutQuery<T> setMaxResults(int maxResults);

    @Override
    FanOutQuery<T> setParameter(String name, Object value);

    @Override
    FanOutQuery<T> setParameter(int position, Object value);

    @Override
    <P> FanOutQuery<T> setParameter(Parameter<P> parameter, P value);

    @Override
    FanOutQuery<T> setHint(String name, Object value);

    @Override
    List<T> getResultList();

    @Override
    Stream<T> getResultStream();

    @Override
    T getSingleResult();

    @Override
    T getSingleResultOrNull();
}
