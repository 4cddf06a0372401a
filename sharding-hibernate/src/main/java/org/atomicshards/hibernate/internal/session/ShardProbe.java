package org.atomicshards.hibernate.internal.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.atomicshards.hibernate.Access;
import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.Combine;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.internal.scope.ShardBinding;
import org.hibernate.Session;

/**
 * Asks the shards that own virtual shards a question in read-only transactions (which one holds an entity, ...),
 * one after the other or in parallel as the unit's access policy says, on a bounded executor of at most one thread
 * per shard, created on first use and stopped by {@link #close()}.
 */
final class ShardProbe implements AutoCloseable {

    private final Object owner;
    private final UnitsOfWork unitsOfWork;
    private final CachedShardDirectory directory;
    private final int maxThreads;
    private final String threadPrefix;
    private volatile ExecutorService executor;

    /**
     * @param owner        the factory (its binding owner)
     * @param maxThreads   the executor's bound: the number of shards
     * @param factoryName  names the threads, {@code atomicshards-<factoryName>-access-N}
     */
    ShardProbe(Object owner, UnitsOfWork unitsOfWork, CachedShardDirectory directory, int maxThreads,
               String factoryName) {
        this.owner = owner;
        this.unitsOfWork = unitsOfWork;
        this.directory = directory;
        this.maxThreads = maxThreads;
        this.threadPrefix = "atomicshards-" + factoryName + "-access-";
    }

    /**
     * The non-null answers of the owning shards, in topology order; with {@link Combine#FIRST}, the first answer.
     *
     * @throws org.atomicshards.hibernate.CrossShardUnitOfWorkException inside a unit of work of this factory
     */
    <R> List<R> ask(UnitRoutingImpl unit, Function<Session, R> probe, Combine combine) {
        ShardBinding.requireNoOpenUnitOfWork(owner, "run askShards (or find by an id that does not name its shard)");
        List<ShardId> candidates = directory.dataShards();
        if (unit.policy().access() == Access.SEQUENTIAL) {
            List<R> results = new ArrayList<>();
            for (ShardId shard : candidates) {
                R result = unitsOfWork.readOnShard(shard, probe);
                if (result != null) {
                    results.add(result);
                    if (combine == Combine.FIRST) {
                        break;
                    }
                }
            }
            return results;
        }
        return askInParallel(candidates, probe, combine);
    }

    private <R> List<R> askInParallel(List<ShardId> candidates, Function<Session, R> probe, Combine combine) {
        CompletionService<R> completion = new ExecutorCompletionService<>(executor());
        Map<Future<R>, ShardId> futures = new LinkedHashMap<>();
        for (ShardId shard : candidates) {
            futures.put(completion.submit(() -> unitsOfWork.readOnShard(shard, probe)), shard);
        }
        Map<ShardId, R> byShard = new LinkedHashMap<>();
        try {
            for (int i = 0; i < candidates.size(); i++) {
                Future<R> done = completion.take();
                R result = done.get();
                if (result != null) {
                    byShard.put(futures.get(done), result);
                    if (combine == Combine.FIRST) {
                        break;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AtomicShardsException("Interrupted while asking shards " + candidates, e);
        } catch (ExecutionException | CancellationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof RuntimeException runtimeException) {
                throw UnitFailures.unwrapped(runtimeException);
            }
            throw new AtomicShardsException("Asking shards " + candidates + " failed: " + cause.getMessage(), cause);
        } finally {
            futures.keySet().forEach(f -> f.cancel(true));
        }
        List<R> ordered = new ArrayList<>();
        for (ShardId shard : candidates) {
            if (byShard.containsKey(shard)) {
                ordered.add(byShard.get(shard));
            }
        }
        return ordered;
    }

    /** The bounded executor for parallel access, one thread per shard at most, created on first use. */
    private ExecutorService executor() {
        ExecutorService current = executor;
        if (current == null) {
            synchronized (this) {
                if (executor == null) {
                    AtomicInteger counter = new AtomicInteger();
                    ThreadPoolExecutor pool = new ThreadPoolExecutor(maxThreads, maxThreads, 30, TimeUnit.SECONDS,
                            new LinkedBlockingQueue<>(), task -> {
                                Thread thread = new Thread(task, threadPrefix + counter.incrementAndGet());
                                thread.setDaemon(true);
                                return thread;
                            });
                    pool.allowCoreThreadTimeOut(true);
                    executor = pool;
                }
                current = executor;
            }
        }
        return current;
    }

    /** Stops the executor, if one was started; idempotent. */
    @Override
    public void close() {
        ExecutorService current = executor;
        if (current != null) {
            current.shutdownNow();
        }
    }
}
