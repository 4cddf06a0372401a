package org.atomicshards.hibernate.internal.boot;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.InvalidRoutingMetadataException;
import org.atomicshards.model.ModelDescription;
import org.atomicshards.model.RoutingMetadata;
import org.atomicshards.model.Unit;
import org.atomicshards.model.UnitMember;
import org.atomicshards.model.UnitModel;

/**
 * Compares the annotation processor's routing metadata ({@value RoutingMetadata#RESOURCE}) with the units the mapped
 * entities resolve to at boot. Routing always follows the mapped entities; this only tells the user when the build
 * did not check them:
 * <ul>
 *   <li>{@code @AtomicUnit} roots are mapped that no metadata on the class path describes: the processor never ran
 *       on them (not in {@code annotationProcessorPaths}, or a compiler plugin too old to honour it). Logged once per
 *       class loader and set of roots, with the fix.</li>
 *   <li>the metadata describes a unit differently (other key type, members or key paths): it is stale.</li>
 * </ul>
 * Key columns are not compared: the processor records the column as the annotations name it, while Hibernate's
 * naming strategies (Spring Boot's snake case, for one) decide the physical name, and routing never uses it.
 *
 * <p>Logs to {@value #LOGGER}, so an application that compiles its entities without the processor on purpose can
 * silence the notice without hiding other warnings.
 */
final class ProcessorMetadataCheck {

    /** The logger of these notices. */
    static final String LOGGER = "org.atomicshards.hibernate.metadata";

    private static final Logger LOG = System.getLogger(LOGGER);

    /** The sets of unchecked roots already reported in this class loader, so a JVM says it once. */
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    private final ClassLoader loader;
    private final Set<String> reported;

    ProcessorMetadataCheck(ClassLoader loader) {
        this(loader, REPORTED);
    }

    /** @param reported the unchecked-root sets already reported (tests pass their own) */
    ProcessorMetadataCheck(ClassLoader loader, Set<String> reported) {
        this.loader = loader;
        this.reported = reported;
    }

    void run(ModelDescription description, UnitModel resolved) {
        UnitModel fromBuild;
        try {
            fromBuild = RoutingMetadata.readAll(loader);
        } catch (InvalidRoutingMetadataException e) {
            LOG.log(Level.WARNING, "Ignoring the processor's routing metadata, the model check at boot decides: "
                    + e.getMessage());
            return;
        }
        reportUnchecked(description, fromBuild);
        for (Unit unit : fromBuild.units()) {
            resolved.unit(unit.root()).filter(mapped -> !sameRouting(mapped, unit)).ifPresent(mapped ->
                    LOG.log(Level.WARNING, "The routing metadata written by the annotation processor describes unit "
                            + unit.root() + " as " + unit + ", but the mapped entities resolve to " + mapped
                            + "; routing follows the mapped entities. Rebuild with the sharding-processor to refresh "
                            + RoutingMetadata.RESOURCE));
        }
    }

    private void reportUnchecked(ModelDescription description, UnitModel fromBuild) {
        Set<String> unchecked = description.entities().stream().filter(EntityDescription::isAtomicUnit)
                .map(EntityDescription::className).filter(root -> fromBuild.unit(root).isEmpty())
                .collect(Collectors.toCollection(TreeSet::new));
        if (unchecked.isEmpty() || !reported.add(String.join(",", unchecked))) {
            return;
        }
        String where = fromBuild.units().isEmpty() && fromBuild.referenceData().isEmpty()
                ? "No " + RoutingMetadata.RESOURCE + " is on the class path"
                : "No " + RoutingMetadata.RESOURCE + " on the class path describes them";
        LOG.log(Level.WARNING, "The annotation processor did not check the @AtomicUnit entities " + unchecked + ": "
                + where + ". The rules are checked at boot instead, but a broken model then fails at run time "
                + "rather than in the build. Fix: add org.atomicshards:sharding-processor to the "
                + "<annotationProcessorPaths> of maven-compiler-plugin and pin that plugin's <version> (3.6 or later; "
                + "Maven 3.8 otherwise uses 3.1, which ignores annotationProcessorPaths); with Gradle, add it to the "
                + "annotationProcessor configuration. (Logger " + LOGGER + ".)");
    }

    /** Same root, key type, members and key paths: what routing depends on. */
    private static boolean sameRouting(Unit a, Unit b) {
        return a.root().equals(b.root()) && a.keyType().equals(b.keyType())
                && keyPaths(a.members()).equals(keyPaths(b.members()));
    }

    private static Set<String> keyPaths(List<UnitMember> members) {
        return members.stream().map(member -> member.entity() + "#" + member.keyPath())
                .collect(Collectors.toSet());
    }
}
