package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.atomicshards.hibernate.admin.MoveFailedException;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code atomicshards.resharding.auto_resume}: an instance with {@code true} carries a move another instance stopped
 * to completion on its own, at its topology refreshes; by default ({@code after_switch}) it does so for a move stopped
 * past its switch only, and never one it runs itself; a bad value, or the setting without refreshes, fails at boot.
 */
class AutoResumeTest {

    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");

    private ShardDatabases dbs;

    @BeforeEach
    void databases() {
        dbs = ShardDatabases.create(DatabaseKind.H2, 2);
    }

    @AfterEach
    void drop() {
        MoveFaults.install(null);
        dbs.close();
    }

    @Test
    void anInstanceWithAutoResumeFinishesAMoveAnotherInstanceStopped() throws InterruptedException {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, 16).catalog(catalog).build();
             ShardedSessionFactory resumer = Fixtures.anotherInstance(dbs, 16, catalog)
                     .property(ShardingSettings.RESHARDING_AUTO_RESUME, "true")
                     .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "100").build()) {
            Fixtures.seedUsersWithTwoStatuses(mover, 60);
            Set<Integer> moving = new TreeSet<>(mover.directory().virtualShardsOf(S0).subList(0, 4));
            MoveFaults.install(step -> {
                if (step.equals("after-copy")) {
                    throw new IllegalStateException("the mover's process stopped here (played)");
                }
            });
            assertThatThrownBy(() -> mover.admin().move(moving, S1, MoveOptions.defaults().virtualShardsPerBatch(2)))
                    .isInstanceOf(MoveFailedException.class);
            MoveFaults.install(null);

            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!resumer.admin().operations().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(resumer.admin().operations()).as("resumed without anyone calling resume").isEmpty();
            for (int bucket : moving) {
                assertThat(resumer.directory().shardOf(bucket)).isEqualTo(S1);
            }
            for (long id = 0; id < 60; id++) {
                long key = id;
                ShardId owner = resumer.shardFor(User.class, key).orElseThrow();
                String email = resumer.callInUnit(User.class, key, session -> session.find(User.class, key).getEmail());
                assertThat(email).isEqualTo("u" + key);
                ShardId other = owner.equals(S0) ? S1 : S0;
                assertThat(Fixtures.hasRow(dbs, owner.name(), "app_user", key)).as("user " + key + " on its shard")
                        .isTrue();
                assertThat(Fixtures.hasRow(dbs, other.name(), "app_user", key)).as("user " + key + " elsewhere")
                        .isFalse();
            }
        }
    }

    /**
     * The default, {@code after_switch}: an instance carries on by itself a move stopped past its switch (until then
     * the batch is on both shards, and fan-outs release it themselves), and leaves one stopped while copying, which
     * impairs nothing, to the operator.
     */
    @Test
    void byDefaultAnInstanceFinishesAMoveStoppedPastItsSwitchAndLeavesOneStoppedBeforeIt() throws Exception {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, 16).catalog(catalog).build();
             ShardedSessionFactory instance = Fixtures.withDefaultAutoResume(dbs, 16).catalog(catalog)
                     .schemaAction("none").property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "100").build()) {
            Fixtures.seedUsersWithTwoStatuses(mover, 60);
            List<Integer> owned = mover.directory().virtualShardsOf(S0);
            Set<Integer> beforeItsSwitch = new TreeSet<>(owned.subList(0, 2));
            Set<Integer> pastItsSwitch = new TreeSet<>(owned.subList(2, 4));
            stopAt("after-copy", () -> mover.admin().move(beforeItsSwitch, S1, MoveOptions.defaults()));
            Thread.sleep(1_000); // ten refreshes of the instance
            assertThat(instance.admin().operations()).as("stopped before its switch: left to the operator")
                    .singleElement().satisfies(op -> assertThat(op.state()).isEqualTo("COPYING"));
            assertThat(mover.admin().resume()).as("the operator resumes it").hasSize(1);

            stopAt("after-promote", () -> mover.admin().move(pastItsSwitch, S1, MoveOptions.defaults()));
            awaitNoOperations(instance);
            assertThat(instance.admin().operations()).as("stopped past its switch: finished without a resume")
                    .isEmpty();
            for (int bucket : owned.subList(0, 4)) {
                assertThat(instance.directory().shardOf(bucket)).isEqualTo(S1);
            }
            assertThat(instance.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult())
                    .as("fan-outs answer again").isEqualTo(60L);
        }
    }

    /**
     * A move stopped after freezing its batch and before its switch (a catalog that failed at the switch, say) holds
     * up that batch's writes until it goes on: by default an instance carries it on by itself.
     */
    @Test
    void byDefaultAnInstanceCarriesOnAMoveStoppedWithItsBatchFrozen() throws Exception {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, 16).catalog(catalog).build();
             ShardedSessionFactory instance = Fixtures.withDefaultAutoResume(dbs, 16).catalog(catalog)
                     .schemaAction("none").property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "100").build()) {
            Fixtures.seedUsersWithTwoStatuses(mover, 40);
            List<Integer> owned = mover.directory().virtualShardsOf(S0);
            Set<Integer> frozen = new TreeSet<>(owned.subList(0, 2));
            stopAt("before-switch", () -> mover.admin().move(frozen, S1, MoveOptions.defaults()));
            awaitNoOperations(instance);
            assertThat(instance.admin().operations()).as("stopped frozen: carried on without a resume").isEmpty();
            for (int bucket : frozen) {
                assertThat(instance.directory().shardOf(bucket)).isEqualTo(S1);
            }
            long key = java.util.stream.LongStream.range(0, 40)
                    .filter(k -> frozen.contains(Fixtures.virtualShardOf(instance, k))).findFirst().orElseThrow();
            instance.inUnit(User.class, key, session -> session.find(User.class, key).setEmail("after"));
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", key)).isTrue();
            assertThat(instance.find(User.class, key).getEmail()).isEqualTo("after");
        }
    }

    /** Waits up to 20 s for the instance to find no unfinished operation (its auto-resume carried them on). */
    private static void awaitNoOperations(ShardedSessionFactory instance) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!instance.admin().operations().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    private static void stopAt(String step, Runnable move) {
        MoveFaults.install(at -> {
            if (at.equals(step)) {
                throw new IllegalStateException("the mover's process stopped here (played)");
            }
        });
        try {
            assertThatThrownBy(move::run).isInstanceOf(MoveFailedException.class);
        } finally {
            MoveFaults.install(null);
        }
    }

    @Test
    void aResumeInTheInstanceThatRunsTheMoveLeavesItToThatRun() throws Exception {
        try (ShardedSessionFactory shards = Fixtures.withDefaultAutoResume(dbs, 16)
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "100").build()) {
            Fixtures.seedUsersWithTwoStatuses(shards, 60);
            Set<Integer> moving = new TreeSet<>(shards.directory().virtualShardsOf(S0).subList(0, 4));
            CountDownLatch paused = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger passes = new AtomicInteger();
            MoveFaults.install(step -> {
                if (step.equals("after-promote") && passes.incrementAndGet() == 1) {
                    paused.countDown(); // past its switch: what the default automatic resume carries on
                    try {
                        release.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            CompletableFuture<MoveReport> move = CompletableFuture.supplyAsync(
                    () -> shards.admin().move(moving, S1, MoveOptions.defaults().virtualShardsPerBatch(2)));
            assertThat(paused.await(20, TimeUnit.SECONDS)).as("the move reached its first promotion").isTrue();

            assertThat(shards.admin().resume()).as("a resume while this instance runs the move").isEmpty();
            Thread.sleep(500); // several refreshes, each with an automatic resume
            release.countDown();

            assertThat(move.get(30, TimeUnit.SECONDS).virtualShards()).isEqualTo(moving);
            assertThat(passes).as("batches that reached their promotion: the run's two, once each").hasValue(2);
            assertThat(shards.admin().operations()).isEmpty();
            for (long id = 0; id < 60; id++) {
                ShardId owner = shards.shardFor(User.class, id).orElseThrow();
                ShardId other = owner.equals(S0) ? S1 : S0;
                assertThat(Fixtures.hasRow(dbs, owner.name(), "app_user", id)).as("user " + id + " on its shard")
                        .isTrue();
                assertThat(Fixtures.hasRow(dbs, other.name(), "app_user", id)).as("user " + id + " elsewhere")
                        .isFalse();
            }
        }
    }

    @Test
    void aValueOtherThanTrueOrFalseFailsAtBootNamingTheSetting() {
        assertThatThrownBy(() -> Fixtures.builder(dbs, 16).property(ShardingSettings.RESHARDING_AUTO_RESUME, "yes")
                .build()).isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining(ShardingSettings.RESHARDING_AUTO_RESUME).hasMessageContaining("'yes'");
    }

    @Test
    void afterSwitchWithoutRefreshesFailsAtBootNamingBothSettingsAndTheDefaultNeedsNone() {
        assertThatThrownBy(() -> Fixtures.builder(dbs, 16)
                .property(ShardingSettings.RESHARDING_AUTO_RESUME, "after_switch")
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "0").build())
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining(ShardingSettings.RESHARDING_AUTO_RESUME + "' is after_switch")
                .hasMessageContaining(ShardingSettings.CATALOG_REFRESH_INTERVAL);
        try (ShardedSessionFactory noRefresh = Fixtures.withDefaultAutoResume(dbs, 16).catalog(dbs.newCatalogUrl())
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "0").build()) {
            assertThat(noRefresh.admin().operations()).as("boots: the default is false without refreshes").isEmpty();
        }
        try (ShardedSessionFactory spelled = Fixtures.builder(dbs, 16)
                .property(ShardingSettings.RESHARDING_AUTO_RESUME, " After_Switch ").build()) {
            assertThat(spelled.admin().operations()).as("any case, spaces around").isEmpty();
        }
    }

    @Test
    void autoResumeWithoutRefreshesFailsAtBootNamingBothSettings() {
        assertThatThrownBy(() -> Fixtures.builder(dbs, 16).property(ShardingSettings.RESHARDING_AUTO_RESUME, "true")
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "0").build())
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining(ShardingSettings.RESHARDING_AUTO_RESUME)
                .hasMessageContaining(ShardingSettings.CATALOG_REFRESH_INTERVAL);
    }
}
