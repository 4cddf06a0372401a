package org.atomicshards.hibernate.internal.boot;

import java.lang.System.Logger.Level;
import java.lang.System.Logger;

import org.atomicshards.hibernate.ShardedModelException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.model.AtomicUnitCheck;
import org.atomicshards.model.AtomicUnitRules;
import org.atomicshards.model.ModelDescription;
import org.atomicshards.model.UnitModel;
import org.atomicshards.model.Violation;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * The model check at boot: the rule book of {@code sharding-model} (the same rules and {@code [SHARD-0xx]} codes as
 * the annotation processor) run against Hibernate's metamodel, so entities compiled without the processor are checked
 * too. Errors fail the boot with every violation listed; warnings are logged. The processor's routing metadata, when
 * present, is compared with what the mapped entities resolve to ({@link ProcessorMetadataCheck}).
 */
final class ModelCheck {

    private static final Logger LOG = System.getLogger("org.atomicshards.hibernate");

    private final SessionFactoryImplementor sessionFactory;
    private final boolean failOnError;

    ModelCheck(SessionFactoryImplementor sessionFactory, boolean failOnError) {
        this.sessionFactory = sessionFactory;
        this.failOnError = failOnError;
    }

    /**
     * @return the resolved units
     * @throws ShardedModelException listing every error, unless {@code atomicshards.model_check=false}
     */
    UnitModel run(ModelDescription description) {
        AtomicUnitCheck check = AtomicUnitRules.check(description);
        for (Violation warning : check.report().warnings()) {
            LOG.log(Level.WARNING, warning.text());
        }
        if (check.report().hasErrors()) {
            String message = "The mapped entities break " + check.report().errors().size() + " rule(s) of the "
                    + "atomic-unit model (the annotation processor reports the same codes at build time):"
                    + System.lineSeparator() + String.join(System.lineSeparator(),
                    check.report().errors().stream().map(Violation::text).toList());
            if (failOnError) {
                throw new ShardedModelException(message + System.lineSeparator() + "Fix the entities (or, at your "
                        + "own risk, set " + ShardingSettings.MODEL_CHECK + "=false to route the valid units only)");
            }
            LOG.log(Level.WARNING, message);
        }
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        new ProcessorMetadataCheck(context != null ? context : sessionFactory.getClass().getClassLoader())
                .run(description, check.units());
        return check.units();
    }
}
