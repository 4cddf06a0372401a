package org.atomicshards.hibernate.custompolicy;

import org.atomicshards.hibernate.spi.PolicyOptions;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.UnitTopology;

/**
 * A user's selection policy without options, registered with the builder ({@code selectionPolicy(..)}): the key's
 * first character (lower case) modulo the virtual shards.
 */
public final class FirstLetterSelection implements SelectionPolicy {

    @Override
    public String name() {
        return "first_letter";
    }

    @Override
    public SelectionPolicy configure(PolicyOptions options) {
        return this;
    }

    @Override
    public int virtualShardOf(Object key, UnitTopology unit) {
        String text = (String) key;
        int first = text.isEmpty() ? 0 : Character.toLowerCase(text.codePointAt(0));
        return first % unit.directory().virtualShards();
    }
}
