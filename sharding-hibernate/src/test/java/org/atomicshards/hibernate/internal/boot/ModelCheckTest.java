package org.atomicshards.hibernate.internal.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Writer;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.atomicshards.model.ModelDescription;
import org.atomicshards.model.RoutingMetadata;
import org.atomicshards.model.Unit;
import org.atomicshards.model.UnitMember;
import org.atomicshards.model.UnitModel;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The boot-time model check always checks the mapped entities; the processor's routing metadata found on the class
 * path is only compared with them (key paths, not column names), and a stale description is logged naming the
 * difference. Roots that no metadata describes were never checked by the processor: that is said once, with the fix.
 */
class ModelCheckTest {

    private static final String WAREHOUSE = JoinColumnsModel.Warehouse.class.getName();
    private static final String SHELF = JoinColumnsModel.Shelf.class.getName();

    private final Logger logger = Logger.getLogger("org.atomicshards.hibernate");
    private final List<LogRecord> records = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private SessionFactoryImplementor sessionFactory;

    /** Held strongly, so the level set here sticks; tests may configure it quieter (see logging.properties). */
    private final Logger metadataLogger = Logger.getLogger(ProcessorMetadataCheck.LOGGER);
    private Level metadataLevel;

    @BeforeEach
    void boot() {
        sessionFactory = JoinColumnsModel.sessionFactory();
        logger.addHandler(capture);
        metadataLevel = metadataLogger.getLevel();
        metadataLogger.setLevel(Level.ALL);
    }

    @AfterEach
    void close() {
        metadataLogger.setLevel(metadataLevel);
        logger.removeHandler(capture);
        sessionFactory.close();
    }

    @Nested
    class NoProcessorMetadataOnTheClassPath {

        @Test
        void theUncheckedRootsAreReportedOnceWithTheFix() {
            ModelDescription description = new ModelDescriber(sessionFactory).describe();
            UnitModel resolved = check(null);
            records.clear();
            ProcessorMetadataCheck check = new ProcessorMetadataCheck(new URLClassLoader(new URL[0], null), new HashSet<>());

            check.run(description, resolved);
            check.run(description, resolved);

            assertThat(records).filteredOn(record -> record.getLevel() == Level.WARNING)
                    .extracting(LogRecord::getMessage)
                    .singleElement().satisfies(message -> assertThat(message)
                            .contains("The annotation processor did not check the @AtomicUnit entities [" + WAREHOUSE + "]")
                            .contains("No " + RoutingMetadata.RESOURCE + " is on the class path")
                            .contains("org.atomicshards:sharding-processor")
                            .contains("<annotationProcessorPaths> of maven-compiler-plugin")
                            .contains("pin that plugin's <version>"));
        }

        @Test
        void metadataDescribingTheRootsSilencesTheNotice(@TempDir Path classes) throws IOException {
            ModelDescription description = new ModelDescriber(sessionFactory).describe();
            UnitModel resolved = check(null);
            records.clear();

            new ProcessorMetadataCheck(metadata(classes, resolved), new HashSet<>()).run(description, resolved);

            assertThat(records).filteredOn(record -> record.getLevel() == Level.WARNING).isEmpty();
        }
    }

    @Nested
    class ProcessorMetadataOnTheClassPath {

        @Test
        void thatMatchesTheMappedEntitiesIsAcceptedSilently(@TempDir Path classes) throws IOException {
            UnitModel resolved = check(null);
            records.clear();

            UnitModel withMetadata = check(metadata(classes, resolved));

            assertThat(withMetadata).isEqualTo(resolved);
            assertThat(records).extracting(LogRecord::getMessage).noneMatch(message -> message.contains(RoutingMetadata.RESOURCE));
        }

        @Test
        void thatNamesOtherKeyColumnsIsAcceptedSilently(@TempDir Path classes) throws IOException {
            UnitModel resolved = check(null);
            List<Unit> renamed = resolved.units().stream().map(unit -> new Unit(unit.root(), unit.keyType(),
                    unit.members().stream().map(member -> new UnitMember(member.entity(), member.keyPath(),
                            "physical_" + member.keyPath().replace('.', '_'))).toList())).toList();
            records.clear();

            check(metadata(classes, UnitModel.of(renamed, resolved.referenceData())));

            assertThat(records).filteredOn(record -> record.getLevel() == Level.WARNING).isEmpty();
        }

        @Test
        void thatIsStaleIsReportedNamingTheDifferenceAndRoutingFollowsTheMappedEntities(@TempDir Path classes) throws IOException {
            UnitModel resolved = check(null);
            Unit unit = resolved.unit(WAREHOUSE).orElseThrow();
            assertThat(unit.member(SHELF)).isPresent();
            Unit withoutShelf = new Unit(unit.root(), unit.keyType(),
                    unit.members().stream().filter(member -> !member.entity().equals(SHELF)).toList());
            records.clear();

            UnitModel withStaleMetadata = check(metadata(classes, UnitModel.of(List.of(withoutShelf), Set.of())));

            assertThat(withStaleMetadata).isEqualTo(resolved);
            assertThat(records).filteredOn(record -> record.getLevel() == Level.WARNING)
                    .extracting(LogRecord::getMessage)
                    .anySatisfy(message -> assertThat(message)
                            .contains("describes unit " + WAREHOUSE + " as " + withoutShelf)
                            .contains("the mapped entities resolve to " + unit)
                            .contains(RoutingMetadata.RESOURCE));
        }
    }

    /** Runs the boot-time check with {@code metadataLoader} (if any) as the context class loader. */
    private UnitModel check(ClassLoader metadataLoader) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        if (metadataLoader != null) {
            thread.setContextClassLoader(metadataLoader);
        }
        try {
            return new ModelCheck(sessionFactory, true).run(new ModelDescriber(sessionFactory).describe());
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** A class loader that sees only {@code units} as the processor's metadata, in {@code classes}. */
    private static ClassLoader metadata(Path classes, UnitModel units) throws IOException {
        Path resource = classes.resolve(RoutingMetadata.RESOURCE);
        Files.createDirectories(resource.getParent());
        try (Writer writer = Files.newBufferedWriter(resource)) {
            RoutingMetadata.write(units, writer);
        }
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, null);
    }
}
