package org.atomicshards.benchmarks.move;

import java.util.Locale;

import org.atomicshards.benchmarks.report.Unit;

/**
 * The figures the {@link MoveProbe} measures, each with its key in the suite's result table
 * ({@code OnlineMove.<figure>}) and its unit. Throughputs are means over the measured moves with their standard
 * deviation; percentiles are over every batch (or unit of work) of the moves made under load.
 */
public enum MoveFigure {

    /** Units moved per second by a move with no application load. */
    IDLE_UNITS_PER_SECOND(Unit.UNITS_PER_SECOND),
    /** Rows moved per second by a move with no application load. */
    IDLE_ROWS_PER_SECOND(Unit.ROWS_PER_SECOND),
    /** Units moved per second by a move while the writer threads run. */
    LOADED_UNITS_PER_SECOND(Unit.UNITS_PER_SECOND),
    /** Rows moved per second by a move while the writer threads run. */
    LOADED_ROWS_PER_SECOND(Unit.ROWS_PER_SECOND),
    /** Units of work committed per second over all writer threads in the seconds before each move. */
    APPLICATION_BEFORE(Unit.OPS_PER_SECOND),
    /** Units of work committed per second over all writer threads while each move ran. */
    APPLICATION_DURING(Unit.OPS_PER_SECOND),
    /** The mover's write pause per batch (freeze to promotion), median over the batches of the loaded moves. */
    FROZEN_P50(Unit.MILLIS),
    /** The same, 99th percentile. */
    FROZEN_P99(Unit.MILLIS),
    /** Latency of the units of work on a batch's virtual shards that overlapped its freeze, median. */
    WRITER_FROZEN_P50(Unit.MILLIS),
    /** The same, 99th percentile. */
    WRITER_FROZEN_P99(Unit.MILLIS),
    /** Latency of every unit of work in the seconds before each move, median. */
    WRITER_BEFORE_P50(Unit.MILLIS),
    /** The same, 99th percentile. */
    WRITER_BEFORE_P99(Unit.MILLIS);

    /** The prefix of the result table's keys of these figures. */
    public static final String KEY_PREFIX = "OnlineMove.";

    private final Unit unit;

    MoveFigure(Unit unit) {
        this.unit = unit;
    }

    public Unit unit() {
        return unit;
    }

    /** The figure's key in the result table, e.g. {@code OnlineMove.idleUnitsPerSecond}. */
    public String key() {
        StringBuilder camel = new StringBuilder();
        for (String word : name().toLowerCase(Locale.ROOT).split("_")) {
            camel.append(camel.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return KEY_PREFIX + camel;
    }
}
