package org.atomicshards.model;

import java.util.Objects;
import java.util.Optional;

/**
 * One entity of an atomic unit (the root included) and where it carries the unit's shard key.
 *
 * @param entity    the entity's binary class name
 * @param keyPath   the attribute path, relative to the entity, whose value is the shard key: {@code "id"} on a
 *                  root keyed by its id, {@code "customerId"} for a basic key, {@code "customer.id"} for a
 *                  {@code @ManyToOne @ShardKey} to the root, {@code "id.customerId"} for a key inside an
 *                  embedded id
 * @param keyColumn the column holding the key as mapped (for a to-one key: the join column), or null when
 *                  unknown or spread over several columns
 */
public record UnitMember(String entity, String keyPath, String keyColumn) {

    public UnitMember {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(keyPath, "keyPath");
    }

    public Optional<String> column() {
        return Optional.ofNullable(keyColumn);
    }
}
