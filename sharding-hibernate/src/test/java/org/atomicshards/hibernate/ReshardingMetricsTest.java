package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.atomicshards.hibernate.admin.MoveFailedException;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The resharding meters, fed by the mover's progress: moves in progress, units and rows copied, the write pause of
 * each batch, moves that stopped; checked against the move's own report.
 */
class ReshardingMetricsTest {

    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");

    private ShardDatabases dbs;
    private SimpleMeterRegistry registry;
    private ShardedSessionFactory shards;

    @BeforeEach
    void boot() {
        dbs = ShardDatabases.create(DatabaseKind.H2, 2);
        registry = new SimpleMeterRegistry();
        shards = Fixtures.builder(dbs, 16).meterRegistry(registry).build();
        Fixtures.seedUsersWithTwoStatuses(shards, 60);
    }

    @AfterEach
    void shutDown() {
        MoveFaults.install(null);
        shards.close();
        dbs.close();
    }

    private Set<Integer> firstOf(ShardId shard, int count) {
        return new TreeSet<>(shards.directory().virtualShardsOf(shard).subList(0, count));
    }

    @Test
    void aMoveCountsItsUnitsRowsAndTheWritePauseOfEachBatch() {
        assertThat(registry.find("atomicshards.resharding.operations.active").gauge())
                .as("no resharding meter before the first move").isNull();
        List<Double> activeDuringTheMove = new ArrayList<>();

        MoveReport report = shards.admin().move(firstOf(S0, 4), S1, MoveOptions.defaults().virtualShardsPerBatch(2)
                .listener(progress -> activeDuringTheMove.add(
                        registry.get("atomicshards.resharding.operations.active").gauge().value())));

        assertThat(report.units()).isPositive();
        Counter units = registry.get("atomicshards.resharding.units.copied").tag("target", "s1").counter();
        Counter rows = registry.get("atomicshards.resharding.rows.copied").tag("target", "s1").counter();
        Timer pauses = registry.get("atomicshards.resharding.write_pause").tag("target", "s1").timer();
        // nothing is written during the move, so nothing is copied twice: the counts are the report's
        assertThat(units.count()).isEqualTo(report.units());
        assertThat(rows.count()).isEqualTo(report.rows()).isEqualTo(report.units() * 3);
        assertThat(pauses.count()).isEqualTo(2);
        assertThat(pauses.max(java.util.concurrent.TimeUnit.NANOSECONDS))
                .isEqualTo(report.longestWritePause().toNanos());
        assertThat(activeDuringTheMove).isNotEmpty().containsOnly(1.0);
        Gauge active = registry.get("atomicshards.resharding.operations.active").gauge();
        assertThat(active.value()).as("none once it finished").isZero();
        assertThat(registry.find("atomicshards.resharding.moves.failed").counter()).isNull();
    }

    @Test
    void aMoveThatStopsIsCountedAsFailedAndNoLongerInProgress() {
        MoveFaults.install(step -> {
            if (step.equals("after-copy")) {
                throw new IllegalStateException("injected");
            }
        });

        assertThatThrownBy(() -> shards.admin().move(firstOf(S0, 2), S1)).isInstanceOf(MoveFailedException.class);

        Counter failed = registry.get("atomicshards.resharding.moves.failed").tag("target", "s1")
                .tag("exception", "IllegalStateException").counter();
        assertThat(failed.count()).isEqualTo(1);
        assertThat(registry.get("atomicshards.resharding.operations.active").gauge().value()).isZero();
        assertThat(registry.get("atomicshards.resharding.units.copied").counter().count())
                .as("the copy before the stop was counted").isPositive();

        MoveFaults.install(null);
        List<MoveReport> resumed = shards.admin().resume();
        assertThat(resumed).hasSize(1);
        assertThat(failed.count()).as("the resumed move finished").isEqualTo(1);
        assertThat(registry.get("atomicshards.resharding.write_pause").timer().count()).isEqualTo(1);
    }

    /**
     * Every instance with meters shows what the catalog's journal records as unfinished, whoever runs it (another
     * instance here; the command-line tool alike): read at each topology refresh.
     */
    @Test
    void everyInstanceShowsTheUnfinishedOperationsOfTheCatalog() throws InterruptedException {
        SimpleMeterRegistry observerMeters = new SimpleMeterRegistry();
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, 16).catalog(catalog).build();
             ShardedSessionFactory observer = Fixtures.anotherInstance(dbs, 16, catalog)
                     .meterRegistry(observerMeters)
                     .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "100").build()) {
            Fixtures.seedUsersWithTwoStatuses(mover, 60);
            awaitGauge(observerMeters, "atomicshards.resharding.catalog.operations", 0);
            AtomicInteger copies = new AtomicInteger();
            MoveFaults.install(step -> {
                if (step.equals("after-copy") && copies.incrementAndGet() == 2) {
                    throw new IllegalStateException("injected in the second batch");
                }
            });
            Set<Integer> moving = new TreeSet<>(mover.directory().virtualShardsOf(S0).subList(0, 4));
            assertThatThrownBy(() -> mover.admin().move(moving, S1,
                    MoveOptions.defaults().virtualShardsPerBatch(2))).isInstanceOf(MoveFailedException.class);
            MoveFaults.install(null);

            // a refresh while the move ran already counted it, with no units yet: wait for one after the first batch
            awaitPositive(observerMeters, "atomicshards.resharding.catalog.units.moved");
            awaitGauge(observerMeters, "atomicshards.resharding.catalog.operations", 1);
            double unitsOfTheFirstBatch = observerMeters.get("atomicshards.resharding.catalog.units.moved").gauge()
                    .value();
            assertThat(unitsOfTheFirstBatch).isPositive();
            assertThat(observerMeters.get("atomicshards.resharding.catalog.rows.moved").gauge().value())
                    .isEqualTo(unitsOfTheFirstBatch * 3);
            assertThat(observerMeters.find("atomicshards.resharding.operations.active").gauge())
                    .as("the observer runs no move itself").isNull();

            // the stopped run released the operation: another instance takes it over at once, no lease to wait for
            assertThat(observer.admin().resume()).hasSize(1);
            awaitGauge(observerMeters, "atomicshards.resharding.catalog.operations", 0);
            assertThat(observerMeters.get("atomicshards.resharding.catalog.units.moved").gauge().value()).isZero();
        }
    }

    private static void awaitPositive(SimpleMeterRegistry meters, String name) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            Gauge gauge = meters.find(name).gauge();
            if (gauge != null && gauge.value() > 0) {
                return;
            }
            Thread.sleep(50);
        }
        assertThat(meters.find(name).gauge()).as(name + " registered").isNotNull();
        assertThat(meters.find(name).gauge().value()).as(name).isPositive();
    }

    private static void awaitGauge(SimpleMeterRegistry meters, String name, double expected)
            throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            Gauge gauge = meters.find(name).gauge();
            if (gauge != null && gauge.value() == expected) {
                return;
            }
            Thread.sleep(50);
        }
        Gauge gauge = meters.find(name).gauge();
        assertThat(gauge).as(name + " registered").isNotNull();
        assertThat(gauge.value()).as(name).isEqualTo(expected);
    }
}
