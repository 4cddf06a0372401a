package org.atomicshards.hibernate.internal.fanout;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

import jakarta.persistence.Parameter;
import org.hibernate.query.SelectionQuery;
import org.hibernate.query.sqm.tree.expression.JpaCriteriaParameter;
import org.hibernate.query.sqm.tree.expression.SqmJpaCriteriaParameterWrapper;
import org.hibernate.query.sqm.tree.expression.SqmParameter;
import org.hibernate.query.sqm.tree.expression.ValueBindJpaCriteriaParameter;

/**
 * The parameter values a user bound on a fan-out query: by name, by position, or by the criteria
 * {@link Parameter} object. Resolves the value of an SQM parameter node (for pruning and HAVING) and binds the
 * values on each shard's query.
 */
final class ParameterBindings {

    /** The value of a parameter that was not bound. */
    static final Object UNBOUND = new Object() {
        @Override
        public String toString() {
            return "<unbound>";
        }
    };

    private final Map<String, Object> named = new HashMap<>();
    private final Map<Integer, Object> positional = new HashMap<>();
    private final Map<Parameter<?>, Object> byParameter = new IdentityHashMap<>();

    void bind(String name, Object value) {
        named.put(name, value);
    }

    void bind(int position, Object value) {
        positional.put(position, value);
    }

    void bind(Parameter<?> parameter, Object value) {
        if (parameter instanceof JpaCriteriaParameter<?> || parameter.getName() == null
                && parameter.getPosition() == null) {
            byParameter.put(parameter, value);
        }
        else if (parameter.getName() != null) {
            named.put(parameter.getName(), value);
        }
        else {
            positional.put(parameter.getPosition(), value);
        }
    }

    /** The value bound for a JPA parameter object (by identity, name or position), or {@link #UNBOUND}. */
    Object valueOf(Parameter<?> parameter) {
        if (byParameter.containsKey(parameter)) {
            return byParameter.get(parameter);
        }
        if (parameter.getName() != null && named.containsKey(parameter.getName())) {
            return named.get(parameter.getName());
        }
        if (parameter.getPosition() != null && positional.containsKey(parameter.getPosition())) {
            return positional.get(parameter.getPosition());
        }
        return UNBOUND;
    }

    Object valueOf(String name) {
        return named.getOrDefault(name, UNBOUND);
    }

    Object valueOf(int position) {
        return positional.getOrDefault(position, UNBOUND);
    }

    /** The bound value of a parameter node of the query's tree, or {@link #UNBOUND}. */
    Object valueOf(SqmParameter<?> parameter) {
        if (parameter instanceof ValueBindJpaCriteriaParameter<?> valueBind) {
            return valueBind.getValue();
        }
        if (parameter instanceof SqmJpaCriteriaParameterWrapper<?> wrapper) {
            return valueOf(wrapper.getJpaCriteriaParameter());
        }
        if (parameter instanceof JpaCriteriaParameter<?> criteriaParameter) {
            if (byParameter.containsKey(criteriaParameter)) {
                return byParameter.get(criteriaParameter);
            }
            String name = criteriaParameter.getName();
            return name != null && named.containsKey(name) ? named.get(name) : UNBOUND;
        }
        if (parameter.getName() != null) {
            return named.getOrDefault(parameter.getName(), UNBOUND);
        }
        if (parameter.getPosition() != null) {
            return positional.getOrDefault(parameter.getPosition(), UNBOUND);
        }
        return UNBOUND;
    }

    /** Binds every value whose parameter the shard query declares; values of removed clauses are skipped. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    void applyTo(SelectionQuery<?> query) {
        for (Map.Entry<Parameter<?>, Object> bound : byParameter.entrySet()) {
            try {
                query.setParameter((Parameter) bound.getKey(), bound.getValue());
            }
            catch (IllegalArgumentException notInThisQuery) {
                // The parameter was in a clause the shard query does not run (HAVING is applied after the merge).
            }
        }
        for (Parameter<?> declared : query.getParameterMetadata().getRegistrations()) {
            if (declared.getName() != null && named.containsKey(declared.getName())) {
                query.setParameter(declared.getName(), named.get(declared.getName()));
            }
            else if (declared.getPosition() != null && positional.containsKey(declared.getPosition())) {
                query.setParameter(declared.getPosition(), positional.get(declared.getPosition()));
            }
        }
    }
}
