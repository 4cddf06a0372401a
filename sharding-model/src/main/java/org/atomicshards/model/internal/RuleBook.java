package org.atomicshards.model.internal;

import org.atomicshards.model.AtomicUnitCheck;
import org.atomicshards.model.ModelDescription;
import org.atomicshards.model.ValidationReport;

/** Runs the rules in order; each rule builds on what the previous ones established. */
public final class RuleBook {

    private RuleBook() {
    }

    public static AtomicUnitCheck check(ModelDescription model) {
        ModelIndex index = new ModelIndex(model);
        ValidationReport declarations = DeclarationRule.validate(index);
        RootKeyRule.Result roots = RootKeyRule.validate(index);
        UnitResolver.Result placement = UnitResolver.resolve(index, roots.rootKeys());
        MemberKeyRule.Result members = MemberKeyRule.validate(index, placement.assignment(), roots.rootKeys());
        ValidationReport ids = IdGenerationRule.validate(index, placement.assignment());
        ValidationReport mutable = MutableKeyRule.validate(roots.rootKeys(), members.memberKeys());
        ValidationReport indexes = ShardIndexRule.validate(index, placement.assignment(), roots.rootKeys());
        ValidationReport report = declarations.and(roots.report()).and(placement.report()).and(members.report())
                .and(ids).and(mutable).and(indexes);
        return new AtomicUnitCheck(report,
                UnitModelBuilder.build(index, placement.assignment(), roots.rootKeys(), members.memberKeys()));
    }
}
