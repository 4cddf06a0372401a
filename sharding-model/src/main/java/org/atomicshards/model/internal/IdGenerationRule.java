package org.atomicshards.model.internal;

import java.util.ArrayList;
import java.util.List;

import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.Message;
import org.atomicshards.model.Site;
import org.atomicshards.model.ValidationReport;
import org.atomicshards.model.Violation;

/**
 * Checks that no sharded entity draws its id from a database-local generator (identity, sequence, table, or
 * AUTO on a non-UUID id): every shard would hand out the same ids. A composite id that includes the shard key
 * is unique across shards and therefore allowed. Reference data may not use a database-local generator either:
 * each shard's copy of one row would get the id that shard's counter hands out, so the copies diverge.
 */
final class IdGenerationRule {

    private IdGenerationRule() {
    }

    static ValidationReport validate(ModelIndex index, UnitAssignment assignment) {
        List<Violation> violations = new ArrayList<>();
        for (String top : index.tops()) {
            boolean sharded = assignment.isSharded(top);
            if (!sharded && !index.isReferenceData(top)) {
                continue;
            }
            EntityDescription entity = index.entity(top);
            List<AttributeDescription> ids = entity.idAttributes();
            String idType = ids.size() == 1 ? JavaTypes.boxed(ids.get(0).javaType()) : null;
            if (!entity.idGeneration().isDatabaseLocal(idType) || (sharded && idEmbedsKey(entity, ids))) {
                continue;
            }
            Object source = ids.isEmpty() ? entity.source() : ids.get(0).source();
            String idNames = ids.isEmpty() ? "id" : String.join(", ", ids.stream().map(AttributeDescription::name).toList());
            Message message = sharded ? Message.DATABASE_LOCAL_ID_GENERATOR : Message.REFERENCE_DATA_DATABASE_ID;
            violations.add(Violation.of(message, top, source, Site.ID_GENERATION, top, idNames, entity.idGeneration()));
        }
        return ValidationReport.of(violations);
    }

    /** The key is one part of a composite id (not the whole id). */
    private static boolean idEmbedsKey(EntityDescription entity, List<AttributeDescription> ids) {
        List<KeyAttribute> keys = ModelIndex.keys(entity);
        if (keys.size() != 1 || !keys.get(0).inId()) {
            return false;
        }
        KeyAttribute key = keys.get(0);
        return ids.size() > 1 || key.path().contains(".");
    }
}
