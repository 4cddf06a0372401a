package org.atomicshards.model.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.Unit;
import org.atomicshards.model.UnitMember;
import org.atomicshards.model.UnitModel;

/** Turns the placement and the valid keys into the {@link UnitModel} the runtime routes by. */
final class UnitModelBuilder {

    private UnitModelBuilder() {
    }

    /** Units of roots with a valid key; members with a valid key; every entity of a reference-data hierarchy. */
    static UnitModel build(ModelIndex index, UnitAssignment assignment, Map<String, RootKey> rootKeys,
                           Map<String, MemberKeyRule.MemberKey> memberKeys) {
        Map<String, List<UnitMember>> membersByRoot = new LinkedHashMap<>();
        rootKeys.forEach((root, key) -> membersByRoot.put(root,
                members(index, root, key.path(), key.key().attribute().column())));
        memberKeys.forEach((top, key) -> {
            List<UnitMember> members = membersByRoot.get(assignment.owners().get(top));
            if (members != null) {
                members.addAll(members(index, top, key.path(), key.key().attribute().column()));
            }
        });
        List<Unit> units = new ArrayList<>();
        membersByRoot.forEach((root, members) -> units.add(new Unit(root, rootKeys.get(root).keyType(), members)));
        List<String> referenceData = new ArrayList<>();
        for (String top : index.tops()) {
            if (index.isReferenceData(top)) {
                index.hierarchy(top).forEach(entity -> referenceData.add(entity.className()));
            }
        }
        return UnitModel.of(units, referenceData);
    }

    private static List<UnitMember> members(ModelIndex index, String top, String path, String column) {
        List<UnitMember> members = new ArrayList<>();
        for (EntityDescription entity : index.hierarchy(top)) {
            members.add(new UnitMember(entity.className(), path, column));
        }
        return members;
    }
}
