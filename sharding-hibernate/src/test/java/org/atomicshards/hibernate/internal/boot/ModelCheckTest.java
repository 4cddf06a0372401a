package org.atomicshards.hibernate.internal.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Writer;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.atomicshards.model.RoutingMetadata;
import org.atomicshards.model.Unit;
import org.atomicshards.model.UnitModel;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The boot-time model check always checks the mapped entities; the processor's routing metadata found on the class
 * path is only compared with them, and a stale description is logged naming the difference.
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

    @BeforeEach
    void boot() {
        sessionFactory = JoinColumnsModel.sessionFactory();
        logger.addHandler(capture);
    }

    @AfterEach
    void close() {
        logger.removeHandler(capture);
        sessionFactory.close();
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
