package org.atomicshards.hibernate;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the soak test's threads saw, shared by them: the operations done, the retries, the fan-outs compared (in all
 * and while the topology changed), every wrong answer and every unexpected failure.
 */
final class SoakStats {

    /** The kinds of operation a writer thread mixes. */
    enum Op { NEW_UNIT, UPDATE, INSERT_MEMBER, DELETE_MEMBER, FIND, ORACLE_QUERY, BOUNDED_COUNT }

    /** Set while shards are added and split. */
    final AtomicBoolean moving = new AtomicBoolean();
    final AtomicBoolean stop = new AtomicBoolean();
    private final Map<Op, AtomicLong> done = new EnumMap<>(Op.class);
    private final Map<Op, AtomicLong> doneWhileMoving = new EnumMap<>(Op.class);
    private final Map<String, AtomicLong> retried = new ConcurrentHashMap<>();
    final List<String> wrongAnswers = new CopyOnWriteArrayList<>();
    final List<String> failures = new CopyOnWriteArrayList<>();

    SoakStats() {
        for (Op op : Op.values()) {
            done.put(op, new AtomicLong());
            doneWhileMoving.put(op, new AtomicLong());
        }
    }

    void done(Op op, boolean whileMoving) {
        done.get(op).incrementAndGet();
        if (whileMoving) {
            doneWhileMoving.get(op).incrementAndGet();
        }
    }

    long done(Op op) {
        return done.get(op).get();
    }

    long doneWhileMoving(Op op) {
        return doneWhileMoving.get(op).get();
    }

    void retried(RuntimeException e) {
        retried.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
    }

    void wrong(String answer) {
        wrongAnswers.add(answer);
    }

    void failed(Op op, Throwable e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        failures.add(op + ": " + trace);
    }

    @Override
    public String toString() {
        return "done " + done + ", of which while moving " + doneWhileMoving + ", retried " + retried;
    }
}
