package org.atomicshards.model;

import java.util.Objects;

/**
 * The outcome of {@link AtomicUnitRules#check(ModelDescription)}.
 *
 * @param report every violation found
 * @param units  the resolved units: complete when {@code report} has no errors; with errors, the units and
 *               members whose keys are valid
 */
public record AtomicUnitCheck(ValidationReport report, UnitModel units) {

    public AtomicUnitCheck {
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(units, "units");
    }
}
