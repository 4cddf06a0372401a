package org.atomicshards.spring.internal;

/** Implemented by the queries of a {@link ShardRoutedEntityManager}: the statement they run, as HQL. */
public interface RoutedQuery {

    /** The HQL of the statement (a criteria query rendered as HQL); never null. */
    String queryString();
}
