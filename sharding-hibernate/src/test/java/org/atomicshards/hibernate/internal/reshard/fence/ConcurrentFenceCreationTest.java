package org.atomicshards.hibernate.internal.reshard.fence;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.atomicshards.hibernate.internal.reshard.schema.ShardSql;
import org.junit.jupiter.api.Test;

/**
 * Two instances that meet a shard without the fence's tables create them at the same moment: both succeed, and the
 * shard has every table. (H2 2.4 failed one of two concurrent {@code create index if not exists} of the same index
 * with "object already exists", about once in four boots of two factories in AutoResumeTest.)
 */
class ConcurrentFenceCreationTest {

    @Test
    void twoSessionsCreatingTheFenceTablesAtOnceBothSucceed() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 40; round++) {
                String url = "jdbc:h2:mem:concurrent_fence_" + round + ";DB_CLOSE_DELAY=-1";
                try (Connection keepAlive = DriverManager.getConnection(url, "sa", "")) {
                    CyclicBarrier start = new CyclicBarrier(2);
                    List<Future<?>> creations = new ArrayList<>();
                    for (int instance = 0; instance < 2; instance++) {
                        creations.add(threads.submit(() -> {
                            try (Connection connection = DriverManager.getConnection(url, "sa", "")) {
                                start.await(10, TimeUnit.SECONDS);
                                OwnershipFence.createFenceTables(connection, ShardSql.H2);
                            }
                            return null;
                        }));
                    }
                    for (Future<?> creation : creations) {
                        creation.get(30, TimeUnit.SECONDS); // rethrows a failed creation
                    }
                    assertThat(ShardSql.H2.fenceGap(keepAlive)).as("round " + round + ": every table exists").isNull();
                    keepAlive.createStatement().execute("shutdown");
                }
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
