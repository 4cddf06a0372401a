package org.atomicshards.model;

import java.util.Objects;

/**
 * One broken rule, found by a rule of the rule book.
 *
 * @param message the catalogue entry (code and severity)
 * @param text    the formatted message, code in front: {@code [SHARD-004] ...}; never null
 * @param entity  the class name of the entity the violation is about; never null
 * @param source  the {@code source()} handle of the entity or attribute to report on, as the filler gave it
 *                (may be null when the filler gave none)
 * @param site    the part of that element to point at
 */
public record Violation(Message message, String text, String entity, Object source, Site site) {

    public Violation {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(site, "site");
    }

    /** Formats {@code message} with {@code args}. */
    public static Violation of(Message message, String entity, Object source, Site site, Object... args) {
        return new Violation(message, message.format(args), entity, source, site);
    }

    public Severity severity() {
        return message.severity();
    }

    public boolean isError() {
        return message.severity() == Severity.ERROR;
    }

    @Override
    public String toString() {
        return text;
    }
}
