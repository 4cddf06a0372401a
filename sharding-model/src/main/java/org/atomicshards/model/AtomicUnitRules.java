package org.atomicshards.model;

import org.atomicshards.model.internal.RuleBook;

/**
 * The one rule book of Atomic Shards: checks a {@link ModelDescription} against every atomic-unit rule and
 * resolves its units. The annotation processor runs it on what the sources declare; the runtime runs it on
 * Hibernate's metamodel at boot. Both report the same {@link Message} codes.
 *
 * <pre>{@code
 * AtomicUnitCheck check = AtomicUnitRules.check(ModelDescription.of(entities));
 * if (check.report().hasErrors()) {
 *     throw new IllegalStateException(check.report().toString());
 * }
 * UnitModel units = check.units();
 * }</pre>
 *
 * <p>Stateless and thread-safe; never throws for a bad model (that is what the report is for).
 */
public final class AtomicUnitRules {

    private AtomicUnitRules() {
    }

    public static AtomicUnitCheck check(ModelDescription model) {
        return RuleBook.check(model);
    }
}
