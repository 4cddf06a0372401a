package org.atomicshards.cli.command;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One inconsistency {@code verify} found.
 *
 * @param kind     what is wrong
 * @param entity   the entity class name (for reference data, the table's entity)
 * @param key      the unit's shard key, or null
 * @param shard    the shard where it was found
 * @param expected the shard(s) the map names, or the shard compared with; may be null
 * @param detail   one sentence for the operator
 */
record Problem(Kind kind, String entity, Object key, String shard, String expected, String detail) {

    enum Kind {
        /** A unit's root or member rows on a shard the map does not name for its key. */
        MISPLACED,
        /** Member rows whose unit has no root on that shard. */
        ORPHAN,
        /** Rows of a lookup or round-robin unit that was never placed in the directory. */
        UNPLACED,
        /** A reference-data table whose rows differ from the first shard's. */
        REFERENCE_DATA_DIFFERS,
        /** A shard whose schema version (the application's migrations) is not the others'. */
        SCHEMA_VERSION_DIFFERS,
        /** A shard that could not be read, so nothing on it was checked. */
        UNREADABLE
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("kind", kind.name());
        json.put("entity", entity);
        json.put("key", key == null ? null : key.toString());
        json.put("shard", shard);
        json.put("expected", expected);
        json.put("detail", detail);
        return json;
    }
}
