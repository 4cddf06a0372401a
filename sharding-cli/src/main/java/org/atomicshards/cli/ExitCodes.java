package org.atomicshards.cli;

/**
 * The exit codes of every command. Stable: scripts may test them.
 *
 * <table>
 *   <caption>exit codes</caption>
 *   <tr><td>0</td><td>{@link #OK}</td></tr>
 *   <tr><td>1</td><td>{@link #CHECK_FAILED}</td></tr>
 *   <tr><td>2</td><td>{@link #USAGE}</td></tr>
 *   <tr><td>3</td><td>{@link #CONFIGURATION}</td></tr>
 *   <tr><td>4</td><td>{@link #UNAVAILABLE}</td></tr>
 *   <tr><td>5</td><td>{@link #FAILED}</td></tr>
 *   <tr><td>6</td><td>{@link #CONFLICT}</td></tr>
 *   <tr><td>7</td><td>{@link #MOVE_FAILED}</td></tr>
 * </table>
 */
public final class ExitCodes {

    /** The command did what was asked and found nothing wrong. */
    public static final int OK = 0;
    /** A check found problems: {@code verify} found misplaced units, orphans or differing reference data, or
     * {@code schema validate} found a shard whose tables do not match the model, {@code adopt} found the database
     * not ready to become the first shard (nothing changed), or {@code migrate check} found the schema short of the
     * model. */
    public static final int CHECK_FAILED = 1;
    /** Wrong command line (unknown option, missing parameter). */
    public static final int USAGE = 2;
    /** The settings file, the settings or the entity model are invalid or missing. */
    public static final int CONFIGURATION = 3;
    /** The catalog or a shard could not be reached. */
    public static final int UNAVAILABLE = 4;
    /** Any other failure (a statement failed, an internal error). */
    public static final int FAILED = 5;
    /** A resharding operation was refused and nothing was changed: another operation holds the virtual shards or
     * moves into the same shard, or the topology does not allow it (a shard id taken or retired, a shard that still
     * owns data). */
    public static final int CONFLICT = 6;
    /** A move stopped part way; the catalog's journal records where. The map is consistent; {@code resume} carries
     * the move to completion. */
    public static final int MOVE_FAILED = 7;

    /** The list shown at the end of every command's {@code --help}, code to meaning. */
    static java.util.Map<String, String> helpList() {
        java.util.Map<String, String> list = new java.util.LinkedHashMap<>();
        list.put(Integer.toString(OK), "all good");
        list.put(Integer.toString(CHECK_FAILED), "a check found problems (verify, schema validate, adopt, migrate check)");
        list.put(Integer.toString(USAGE), "wrong command line");
        list.put(Integer.toString(CONFIGURATION), "invalid or missing settings or entity model");
        list.put(Integer.toString(UNAVAILABLE), "the catalog or a shard could not be reached (verify: nothing else was wrong)");
        list.put(Integer.toString(FAILED), "any other failure");
        list.put(Integer.toString(CONFLICT), "resharding refused, nothing changed (another operation, shard id taken)");
        list.put(Integer.toString(MOVE_FAILED), "a move stopped part way: fix the cause, then run resume");
        return list;
    }

    private ExitCodes() {
    }
}
