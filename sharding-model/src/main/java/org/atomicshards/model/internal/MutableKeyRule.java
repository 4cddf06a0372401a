package org.atomicshards.model.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.atomicshards.model.Message;
import org.atomicshards.model.Site;
import org.atomicshards.model.ValidationReport;
import org.atomicshards.model.Violation;

/**
 * Warns about shard keys mapped as updatable: the runtime rejects a changed key at flush, so the mapping should
 * say so ({@code updatable = false}). Ids are never updatable and are not reported.
 */
final class MutableKeyRule {

    private MutableKeyRule() {
    }

    static ValidationReport validate(Map<String, RootKey> rootKeys, Map<String, MemberKeyRule.MemberKey> memberKeys) {
        List<Violation> violations = new ArrayList<>();
        rootKeys.forEach((root, key) -> check(root, key.key(), violations));
        memberKeys.forEach((member, key) -> check(member, key.key(), violations));
        return ValidationReport.of(violations);
    }

    private static void check(String entity, KeyAttribute key, List<Violation> violations) {
        if (!key.inId() && key.attribute().isUpdatable()) {
            violations.add(Violation.of(Message.MUTABLE_SHARD_KEY, entity, key.attribute().source(), Site.UPDATABLE,
                    entity + "." + key.path()));
        }
    }
}
