package org.atomicshards.hibernate.internal.fanout;

import java.util.Arrays;
import java.util.List;

import jakarta.persistence.Tuple;
import jakarta.persistence.TupleElement;

/** A {@link Tuple} over merged values, addressed by the query's own selections, their aliases or positions. */
final class MergedTuple implements Tuple {

    private final List<TupleElement<?>> elements;
    private final Object[] values;

    MergedTuple(List<TupleElement<?>> elements, Object[] values) {
        this.elements = elements;
        this.values = values;
    }

    @Override
    public <X> X get(TupleElement<X> element) {
        for (int i = 0; i < elements.size(); i++) {
            if (elements.get(i) == element) {
                return element.getJavaType().cast(values[i]);
            }
        }
        if (element.getAlias() != null) {
            return element.getJavaType().cast(get(element.getAlias()));
        }
        throw new IllegalArgumentException("The tuple element " + element + " is not a selection of this query");
    }

    @Override
    public <X> X get(String alias, Class<X> type) {
        return type.cast(get(alias));
    }

    @Override
    public Object get(String alias) {
        for (int i = 0; i < elements.size(); i++) {
            if (alias.equals(elements.get(i).getAlias())) {
                return values[i];
            }
        }
        throw new IllegalArgumentException("No selection with alias '" + alias + "' in this query");
    }

    @Override
    public <X> X get(int i, Class<X> type) {
        return type.cast(get(i));
    }

    @Override
    public Object get(int i) {
        if (i < 0 || i >= values.length) {
            throw new IllegalArgumentException("No selection at position " + i + " (the tuple has " + values.length
                    + ")");
        }
        return values[i];
    }

    @Override
    public Object[] toArray() {
        return values.clone();
    }

    @Override
    public List<TupleElement<?>> getElements() {
        return elements;
    }

    @Override
    public String toString() {
        return Arrays.toString(values);
    }
}
