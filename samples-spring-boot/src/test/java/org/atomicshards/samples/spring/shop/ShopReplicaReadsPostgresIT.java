package org.atomicshards.samples.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ReplicaServers;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.data.domain.PageRequest;

/**
 * The shop with a streaming standby per shard ({@code .ci/replicas}), read-only work and fan-outs on the replicas
 * and read-your-writes on: Spring's read-only transactions (Spring Data's reads) and the read-only search run on the
 * replicas, writes on the primaries, and the thread that wrote reads its write while the replica has not replayed it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShopReplicaReadsPostgresIT {

    private static final Duration CATCH_UP = Duration.ofSeconds(30);

    private ShardDatabases databases;
    private ShopContexts shop;
    private ReplicaServers replicas;

    @BeforeAll
    void startShop() {
        assumeTrue(ReplicaServers.enabled(), "replica servers are started by .ci/replicas (atomicshards.it.replicas)");
        databases = ShardDatabases.create(DatabaseKind.POSTGRESQL, 2);
        replicas = ReplicaServers.of(DatabaseKind.POSTGRESQL);
        List<String> args = new ArrayList<>(List.of("--atomicshards.replicas.read-only-work=true",
                "--atomicshards.replicas.max-lag=10m", "--atomicshards.replicas.read-your-writes=true",
                "--atomicshards.replicas.read-your-writes-wait=200ms", "--atomicshards.fan-out.replicas=true"));
        List<ShardDatabase> shards = databases.shards();
        for (int i = 0; i < shards.size(); i++) {
            args.add("--atomicshards.shards[" + i + "].replicas[0].url=" + replicas.replicaUrl(shards.get(i)));
        }
        shop = ShopContexts.start(databases, args);
        ShopData.load(shop);
        replicas.awaitCaughtUp(CATCH_UP);
    }

    @AfterAll
    void stopShop() {
        try {
            if (shop != null) {
                shop.close();
            }
        } finally {
            if (databases != null) {
                databases.close();
            }
        }
    }

    private double replicaReads() {
        return shop.sharded(MeterRegistry.class).find("atomicshards.replica.reads").counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    @Test
    void readOnlyTransactionsAndTheSearchReadFromTheReplicas() {
        CustomerRepository customers = shop.sharded(CustomerRepository.class);
        double before = replicaReads();
        assertThat(customers.findById(7L)).isPresent();
        assertThat(replicaReads()).as("Spring Data's read-only findById").isGreaterThan(before);

        double beforeSearch = replicaReads();
        var sharded = shop.sharded(ShopService.class).ordersWithStatus(OrderStatus.OPEN, PageRequest.of(0, 5));
        var oracle = shop.oracle(ShopService.class).ordersWithStatus(OrderStatus.OPEN, PageRequest.of(0, 5));
        assertThat(sharded.getTotalElements()).isEqualTo(oracle.getTotalElements());
        assertThat(replicaReads() - beforeSearch).as("a read on each shard's replica").isGreaterThanOrEqualTo(2);
    }

    @Test
    void theThreadThatWroteReadsItsWriteWhileOthersReadTheReplicaAsItIs() throws Exception {
        CustomerRepository customers = shop.sharded(CustomerRepository.class);
        ShopService service = shop.sharded(ShopService.class);
        long id = 11L;
        Tier before = customers.findById(id).orElseThrow().getTier();
        Tier after = before == Tier.GOLD ? Tier.SILVER : Tier.GOLD;
        replicas.pauseReplay();
        try {
            service.upgrade(id, after); // a read-write transaction: on the primary

            assertThat(customers.findById(id).orElseThrow().getTier()).as("this thread reads its write")
                    .isEqualTo(after);
            ExecutorService other = Executors.newSingleThreadExecutor();
            try {
                Tier seenElsewhere = other.submit(() -> customers.findById(id).orElseThrow().getTier()).get();
                assertThat(seenElsewhere).as("another thread reads the paused replica").isEqualTo(before);
            } finally {
                other.shutdown();
            }
        } finally {
            replicas.resumeReplay();
        }
        replicas.awaitCaughtUp(CATCH_UP);
        service.upgrade(id, before);
    }
}
