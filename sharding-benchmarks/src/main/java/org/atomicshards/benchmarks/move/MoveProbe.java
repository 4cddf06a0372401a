package org.atomicshards.benchmarks.move;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.atomicshards.benchmarks.report.Unit;
import org.atomicshards.hibernate.admin.MoveReport;

/**
 * Measures online moves between two PostgreSQL shards ({@link MoveScenario}), in a JVM of its own, and prints one
 * {@value #RESULT_PREFIX} line per {@link MoveFigure}: {@code RESULT <FIGURE>=<value> <spread>} (spread NaN when
 * there is none). A move is one shot, not a JMH loop. With {@code threads} writer threads running the benchmark's
 * unit of work, after {@value #WRITER_WARM_UP_SECONDS} s and one move there and back that are not measured (class
 * loading and compilation of both the writers' and the mover's code), it alternates {@code steadySeconds} of steady
 * state with one move, {@code loadedMoves} times; then, with the writers stopped, it moves {@code idleMoves} times
 * with no load. At the end it checks that no customer or order was lost or duplicated.
 *
 * <p>The writers are paced to {@code rate} units of work per second in all (0: as fast as they run). Every unit of
 * work adds an order, so unpaced writers on a fast machine grow the data the moves carry without bound (3 million
 * orders in a 2026-11-27 run), and runs on different machines stop being comparable.
 *
 * <p>Usage: {@code MoveProbe [units ordersPerUnit threads idleMoves loadedMoves steadySeconds [rate]]}, by default
 * {@value #UNITS} units of {@value #ORDERS_PER_UNIT} orders, {@value #THREADS} threads, {@value #IDLE_MOVES} and
 * {@value #LOADED_MOVES} moves, {@value #STEADY_SECONDS} s, {@value #RATE} units of work per second (or the rate
 * of {@value #RATE_PROPERTY}).
 */
public final class MoveProbe {

    public static final String RESULT_PREFIX = "RESULT ";

    public static final long UNITS = 20_000;
    public static final int ORDERS_PER_UNIT = 3;
    public static final int THREADS = 4;
    public static final int IDLE_MOVES = 4;
    public static final int LOADED_MOVES = 4;
    public static final int STEADY_SECONDS = 5;
    /** The writers' total rate: about what the 2-core machine of the first runs sustained unpaced, under the moves too. */
    public static final int RATE = 2_000;
    /** The system property that sets the rate when no arguments are given (0: unpaced). */
    public static final String RATE_PROPERTY = "benchmarks.pg.move.rate";

    /** How long the writers run before the first steady window (class loading, compilation, pools filling). */
    static final int WRITER_WARM_UP_SECONDS = 10;

    /** Connections per shard beyond the writers': the mover holds a source and a target connection at a time. */
    private static final int MOVER_CONNECTIONS = 4;

    private MoveProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 0 && args.length != 6 && args.length != 7) {
            throw new IllegalArgumentException("Usage: MoveProbe [units ordersPerUnit threads idleMoves loadedMoves"
                    + " steadySeconds [rate]], was " + List.of(args));
        }
        long units = args.length == 0 ? UNITS : Long.parseLong(args[0]);
        int orders = args.length == 0 ? ORDERS_PER_UNIT : Integer.parseInt(args[1]);
        int threads = args.length == 0 ? THREADS : Integer.parseInt(args[2]);
        int idleMoves = args.length == 0 ? IDLE_MOVES : Integer.parseInt(args[3]);
        int loadedMoves = args.length == 0 ? LOADED_MOVES : Integer.parseInt(args[4]);
        int steadySeconds = args.length == 0 ? STEADY_SECONDS : Integer.parseInt(args[5]);
        int rate = args.length == 7 ? Integer.parseInt(args[6]) : Integer.getInteger(RATE_PROPERTY, RATE);
        Map<MoveFigure, Samples> figures = run(units, orders, threads, idleMoves, loadedMoves, steadySeconds, rate);
        figures.forEach((figure, samples) -> {
            if (!samples.isEmpty()) {
                System.out.println(result(figure, samples));
            }
        });
    }

    /** The line {@link #main} prints for one figure: mean and standard deviation, or the percentile alone. */
    static String result(MoveFigure figure, Samples samples) {
        boolean percentile = figure.unit() == Unit.MILLIS;
        double value = samples.mean();
        double spread = percentile ? Double.NaN : samples.standardDeviation();
        return String.format(Locale.ROOT, "%s%s=%s %s", RESULT_PREFIX, figure.name(), value, spread);
    }

    /** @param rate the writers' units of work per second in all; 0: as fast as they run */
    static Map<MoveFigure, Samples> run(long units, int orders, int threads, int idleMoves, int loadedMoves,
                                        int steadySeconds, int rate) throws InterruptedException {
        Map<MoveFigure, Samples> figures = new EnumMap<>(MoveFigure.class);
        for (MoveFigure figure : MoveFigure.values()) {
            figures.put(figure, new Samples());
        }
        try (MoveScenario scenario = MoveScenario.create(units, orders, threads + MOVER_CONNECTIONS)) {
            log("loaded " + units + " units of " + orders + " orders on " + MoveScenario.A + "; moving "
                    + scenario.moving().size() + " of its virtual shards");
            log("writers: " + threads + " threads, " + (rate > 0 ? rate + " units of work/s in all" : "unpaced"));
            long committed = measureUnderLoad(scenario, threads, loadedMoves, steadySeconds, rate, figures);
            for (int i = 0; i < idleMoves; i++) {
                MoveReport report = scenario.moveOver(null);
                log("idle " + describe(report));
                figures.get(MoveFigure.IDLE_UNITS_PER_SECOND).add(perSecond(report.units(), report.duration()));
                figures.get(MoveFigure.IDLE_ROWS_PER_SECOND).add(perSecond(report.rows(), report.duration()));
            }
            scenario.checkIntact(committed);
            log("nothing lost or duplicated: every customer once, every order loaded or committed present");
        }
        return figures;
    }

    private record LoadedMove(long beforeFrom, long beforeTo, long from, long to, BatchClock clock,
                              MoveReport report) {
    }

    /**
     * The writers start, warm up, and run through one move there and back (not measured: the mover's warm-up too);
     * then {@code moves} times a steady window and a move.
     *
     * @return how many units of work committed (each wrote one order)
     */
    private static long measureUnderLoad(MoveScenario scenario, int threads, int moves, int steadySeconds, int rate,
                                         Map<MoveFigure, Samples> figures) throws InterruptedException {
        WriterLoad load = WriterLoad.start(scenario.factory(), scenario.units(), threads, rate);
        List<LoadedMove> measured = new ArrayList<>();
        List<UnitOfWorkLog> logs;
        try {
            Thread.sleep(Math.max(WRITER_WARM_UP_SECONDS, steadySeconds) * 1000L);
            log("warm-up under load " + describe(scenario.moveOver(null)));
            log("warm-up under load " + describe(scenario.moveOver(null)));
            for (int i = 0; i < moves && load.healthy(); i++) {
                long beforeFrom = System.nanoTime();
                Thread.sleep(steadySeconds * 1000L);
                long beforeTo = System.nanoTime();
                BatchClock clock = new BatchClock(scenario.factory().directory(), scenario.nextTarget(),
                        System::nanoTime);
                long from = System.nanoTime();
                MoveReport report = scenario.moveOver(clock);
                long to = System.nanoTime();
                log("under load " + describe(report));
                measured.add(new LoadedMove(beforeFrom, beforeTo, from, to, clock, report));
            }
        } finally {
            logs = load.stop();
        }
        long committed = 0;
        for (UnitOfWorkLog log : logs) {
            for (int i = 0; i < log.size(); i++) {
                committed += log.committed(i) ? 1 : 0;
            }
        }
        log("writers: " + committed + " units of work committed, " + UnitOfWorkLog.failed(logs)
                + " turned away by a move (ShardMovingException)");
        for (LoadedMove move : measured) {
            MoveReport report = move.report();
            figures.get(MoveFigure.LOADED_UNITS_PER_SECOND).add(perSecond(report.units(), report.duration()));
            figures.get(MoveFigure.LOADED_ROWS_PER_SECOND).add(perSecond(report.rows(), report.duration()));
            double before = UnitOfWorkLog.committedBetween(logs, move.beforeFrom(), move.beforeTo())
                    * 1e9 / (move.beforeTo() - move.beforeFrom());
            double during = UnitOfWorkLog.committedBetween(logs, move.from(), move.to()) * 1e9
                    / (move.to() - move.from());
            figures.get(MoveFigure.APPLICATION_BEFORE).add(before);
            figures.get(MoveFigure.APPLICATION_DURING).add(during);
            log(String.format(Locale.ROOT, "application: %.1f units of work/s before, %.1f during (%.2fx)", before,
                    during, during / before));
        }
        Samples frozen = new Samples();
        Samples writersFrozen = new Samples();
        Samples writersBefore = new Samples();
        for (LoadedMove move : measured) {
            move.report().writePauses().forEach(pause -> frozen.add(pause.toNanos() / 1e6));
            writersFrozen.addAll(FreezeWindows.frozenLatencies(move.clock().batches(), move.report().writePauses(),
                    logs, scenario.virtualShardOf()));
            writersBefore.addAll(UnitOfWorkLog.latenciesBetween(logs, move.beforeFrom(), move.beforeTo()));
        }
        log(frozen.size() + " batches frozen, " + writersFrozen.size() + " units of work overlapped their batch's"
                + " freeze, " + writersBefore.size() + " ran in the steady windows");
        percentiles(figures, frozen, MoveFigure.FROZEN_P50, MoveFigure.FROZEN_P99);
        percentiles(figures, writersFrozen, MoveFigure.WRITER_FROZEN_P50, MoveFigure.WRITER_FROZEN_P99);
        percentiles(figures, writersBefore, MoveFigure.WRITER_BEFORE_P50, MoveFigure.WRITER_BEFORE_P99);
        return committed;
    }

    private static void percentiles(Map<MoveFigure, Samples> figures, Samples samples, MoveFigure p50,
                                    MoveFigure p99) {
        if (!samples.isEmpty()) {
            figures.get(p50).add(samples.percentile(50));
            figures.get(p99).add(samples.percentile(99));
        }
    }

    static double perSecond(long count, Duration duration) {
        return count * 1e9 / Math.max(1, duration.toNanos());
    }

    private static String describe(MoveReport report) {
        return String.format(Locale.ROOT, "move to %s: %d units, %d rows in %d ms, %d batches, longest write pause"
                        + " %d ms", report.target(), report.units(), report.rows(), report.duration().toMillis(),
                report.writePauses().size(), report.longestWritePause().toMillis());
    }

    private static void log(String message) {
        System.out.println("[move] " + message);
    }
}
