package org.atomicshards.model;

/**
 * How bad a {@link Violation} is: an error fails the build (and the runtime's boot check); a warning does not.
 */
public enum Severity {
    ERROR,
    WARNING
}
