package org.atomicshards.spring.internal;

import org.springframework.data.jpa.provider.PersistenceProvider;
import org.springframework.data.jpa.provider.QueryExtractor;

/**
 * Lets Spring Data read the statement of a routed query (it does so for repository methods backed by a JPA named
 * query); other queries are Hibernate's and read as Spring Data reads them.
 */
public final class RoutedQueryExtractor implements QueryExtractor {

    @Override
    public String extractQueryString(Object query) {
        if (query instanceof RoutedQuery routed) {
            return routed.queryString();
        }
        return PersistenceProvider.HIBERNATE.extractQueryString(query);
    }

    @Override
    public boolean isNativeQuery(Object query) {
        return !(query instanceof RoutedQuery) && PersistenceProvider.HIBERNATE.isNativeQuery(query);
    }

    @Override
    public boolean canExtractQuery() {
        return true;
    }
}
