package org.atomicshards.hibernate.internal.selection;

import org.atomicshards.hibernate.spi.PolicyOptions;
import org.atomicshards.hibernate.spi.SelectionPolicy;

/**
 * A built-in policy that reads no options: named once, configured as itself, equal to any policy of its class (the
 * configuration is all in the class).
 */
abstract class OptionlessSelection implements SelectionPolicy {

    private final String name;

    OptionlessSelection(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    /** The policy itself: it has nothing to configure. */
    @Override
    public SelectionPolicy configure(PolicyOptions options) {
        return this;
    }

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass();
    }

    @Override
    public final int hashCode() {
        return name.hashCode();
    }

    @Override
    public final String toString() {
        return name;
    }
}
