package org.atomicshards.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The immutable outcome of checking a model: every violation found, in a stable order (the order of the
 * entities and attributes in the description).
 */
public final class ValidationReport {

    private static final ValidationReport CLEAN = new ValidationReport(List.of());

    private final List<Violation> violations;

    private ValidationReport(List<Violation> violations) {
        this.violations = List.copyOf(violations);
    }

    public static ValidationReport clean() {
        return CLEAN;
    }

    public static ValidationReport of(List<Violation> violations) {
        return violations.isEmpty() ? CLEAN : new ValidationReport(violations);
    }

    /** This report's violations followed by {@code other}'s. */
    public ValidationReport and(ValidationReport other) {
        if (other.violations.isEmpty()) {
            return this;
        }
        List<Violation> all = new ArrayList<>(violations);
        all.addAll(other.violations);
        return new ValidationReport(all);
    }

    public List<Violation> violations() {
        return violations;
    }

    public List<Violation> errors() {
        return violations.stream().filter(Violation::isError).toList();
    }

    public List<Violation> warnings() {
        return violations.stream().filter(violation -> !violation.isError()).toList();
    }

    public boolean hasErrors() {
        return violations.stream().anyMatch(Violation::isError);
    }

    /** True when there is nothing to report, not even a warning. */
    public boolean isClean() {
        return violations.isEmpty();
    }

    /** One violation per line, for exception messages and logs. */
    @Override
    public String toString() {
        return violations.isEmpty() ? "no violations"
                : String.join(System.lineSeparator(), violations.stream().map(Violation::text).toList());
    }
}
