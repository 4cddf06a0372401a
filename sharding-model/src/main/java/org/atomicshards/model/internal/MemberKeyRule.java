package org.atomicshards.model.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.Message;
import org.atomicshards.model.Site;
import org.atomicshards.model.ValidationReport;
import org.atomicshards.model.Violation;

/**
 * Checks that every member of a unit carries the root's key: a value of the root key's type, or the owning
 * to-one association to the root when the root's id is the key. Yields the valid members' keys.
 */
final class MemberKeyRule {

    /** The report and, per member hierarchy top, its valid key. */
    record Result(ValidationReport report, Map<String, MemberKey> memberKeys) {
    }

    /**
     * A member's key.
     *
     * @param key     the member's {@code @ShardKey} attribute
     * @param path    the path whose value is the shard key ({@code customer.id} for a to-one key)
     */
    record MemberKey(KeyAttribute key, String path) {
    }

    private MemberKeyRule() {
    }

    static Result validate(ModelIndex index, UnitAssignment assignment, Map<String, RootKey> rootKeys) {
        List<Violation> violations = new ArrayList<>();
        Map<String, MemberKey> memberKeys = new LinkedHashMap<>();
        assignment.owners().forEach((top, root) -> {
            RootKey rootKey = rootKeys.get(root);
            if (top.equals(root) || rootKey == null) {
                return;
            }
            EntityDescription member = index.entity(top);
            List<KeyAttribute> keys = ModelIndex.keys(member);
            if (keys.isEmpty()) {
                Edge via = assignment.pulledBy().get(top);
                String readableType = JavaTypes.readable(rootKey.keyType());
                violations.add(Violation.of(Message.MEMBER_WITHOUT_SHARD_KEY, top, member.source(), Site.ELEMENT,
                        top, root, via == null ? "its key" : via.label(), readableType, root, top));
                if (via != null) {
                    violations.add(Violation.of(Message.ASSOCIATION_TO_MEMBER_WITHOUT_KEY, via.owner().className(),
                            via.attribute().source(), Site.ASSOCIATION, via.label(), top, root, top));
                }
                return;
            }
            if (keys.size() > 1) {
                return;
            }
            KeyAttribute key = keys.get(0);
            String label = top + "." + key.path();
            if (key.isValue()) {
                if (key.keyType().equals(rootKey.keyType())) {
                    memberKeys.put(top, new MemberKey(key, key.path()));
                } else {
                    String expected = JavaTypes.readable(rootKey.keyType());
                    violations.add(Violation.of(Message.KEY_TYPE_MISMATCH, top, key.attribute().source(), Site.SHARD_KEY,
                            label, JavaTypes.readable(key.keyType()), root, expected, expected));
                }
            } else if (key.isOwningToOne()) {
                String target = key.attribute().targetEntity();
                boolean toRoot = index.model().contains(target) && index.topOf(target).equals(root);
                if (!toRoot) {
                    violations.add(Violation.of(Message.KEY_ASSOCIATION_NOT_TO_ROOT, top, key.attribute().source(),
                            Site.SHARD_KEY, label, target, root, root));
                } else if (!rootKey.isId()) {
                    violations.add(Violation.of(Message.KEY_ASSOCIATION_ROOT_KEY_NOT_ID, top, key.attribute().source(),
                            Site.SHARD_KEY, label, root, root + "." + rootKey.path(), JavaTypes.readable(rootKey.keyType())));
                } else {
                    memberKeys.put(top, new MemberKey(key, key.path() + "." + rootKey.path()));
                }
            }
        });
        return new Result(ValidationReport.of(violations), memberKeys);
    }
}
