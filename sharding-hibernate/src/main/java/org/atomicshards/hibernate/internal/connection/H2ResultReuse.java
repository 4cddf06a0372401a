package org.atomicshards.hibernate.internal.connection;

import java.sql.SQLException;

import com.zaxxer.hikari.HikariConfig;

/**
 * Turns off H2's reuse of query results on every H2 database the library connects to (shards and catalog), from each
 * new connection of its pools.
 *
 * <p>H2 hands a statement the result of its previous run when no table it reads was modified since; with a commit
 * running at the same moment it can hand out a result from before that commit, for a whole statement or for one of
 * its subqueries alone. The resharding checks rely on reads that see every commit before them, and on a statement
 * whose subquery reads the shard's ownership epoch in the same snapshot as its rows: with reuse on, a fan-out count
 * running while a move switched a batch read the rows after the switch and the epoch from before it, about once in
 * 40,000 statements, and so counted the batch on both shards. With reuse off, 10 million such statements read no
 * mixed snapshot.
 *
 * <p>The setting is the database's and needs H2 admin rights: a connection as another user fails, naming it.
 */
public final class H2ResultReuse {

    /** Run on each new connection to an H2 database. */
    public static final String TURN_OFF = "SET OPTIMIZE_REUSE_RESULTS FALSE";

    /** H2's error code for a statement only an admin may run. */
    private static final int ADMIN_RIGHTS_REQUIRED = 90040;

    private H2ResultReuse() {
    }

    /**
     * Whether {@code failure} (a pool's failure to connect) is H2 refusing {@link #TURN_OFF} to a user without admin
     * rights.
     */
    public static boolean refused(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getErrorCode() == ADMIN_RIGHTS_REQUIRED
                    && String.valueOf(sql.getMessage()).contains("OPTIMIZE_REUSE_RESULTS")) {
                return true;
            }
        }
        return false;
    }

    /** What a user connecting to an H2 database as {@code userSetting} must do, for a failure {@link #refused}. */
    public static String refusal(String userSetting) {
        return "H2 refused to turn off its query result reuse (" + TURN_OFF + "), which needs admin rights; Atomic "
                + "Shards needs it off on every H2 shard and catalog, since a reused result can predate a concurrent "
                + "commit. Fix: connect as an H2 admin user (" + userSetting + ")";
    }

    /** Makes {@code config}'s pool turn the reuse off on each new connection when {@code url} is an H2 database. */
    public static void turnOff(HikariConfig config, String url) {
        if (url.startsWith("jdbc:h2:")) {
            config.setConnectionInitSql(TURN_OFF);
        }
    }
}
