package org.atomicshards.samples.resharding;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.admin.MoveProgress;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.admin.ShardAdded;

/** Prints the demo's tables and move progress for a reader new to the library. */
final class Report {

    private final PrintStream out;

    Report(PrintStream out) {
        this.out = out;
    }

    void line(String text) {
        out.println(text);
    }

    /** One row per shard: the virtual shards it owns and the rows in its live tables. */
    void distribution(String title, List<ShardContents> shards, Map<String, List<Integer>> virtualShards) {
        out.println();
        out.println(title);
        out.printf("  %-5s  %-14s  %6s  %8s  %6s  %6s  %9s%n", "shard", "virtual shards", "users", "statuses", "photos",
                "rows", "countries");
        long users = 0;
        long rows = 0;
        for (ShardContents shard : shards) {
            List<Integer> owned = virtualShards.getOrDefault(shard.shard(), List.of());
            out.printf("  %-5s  %-14s  %6d  %8d  %6d  %6d  %9d%n", shard.shard(),
                    owned.size() + " (" + ranges(owned) + ")", shard.users().size(), shard.statuses().size(),
                    shard.photos().size(), shard.rows(), shard.countries());
            users += shard.users().size();
            rows += shard.rows();
        }
        out.printf("  %-5s  %-14s  %6d  %8s  %6s  %6d%n", "total", "", users, "", "", rows);
    }

    void shardAdded(ShardAdded added, Duration took) {
        out.printf("  added shard %s in %d ms (schema created, reference data copied: %s); it owns nothing yet%n",
                added.shard(), took.toMillis(), added.referenceRowsCopied());
    }

    /** A listener printing one line per batch of a move. */
    MoveProgress.Listener progress(String label) {
        int[] lastBatch = {-1};
        return progress -> {
            if (progress.batch() != lastBatch[0]) {
                lastBatch[0] = progress.batch();
                // copies, not units: a unit written while its batch copies is copied again, so they can outnumber
                // the units to move
                out.printf("    %s: batch %d of %d, about %d units to move, %d copies so far, %.0f units/s%n", label,
                        progress.batch() + 1, progress.batches(), progress.unitsTotal(), progress.unitsCopied(),
                        progress.unitsPerSecond());
            }
        };
    }

    void moved(String label, MoveReport report) {
        out.printf("  %s: moved %d virtual shards (%d units, %d rows) to %s in %.1f s, %.0f units/s; writes to a "
                        + "batch paused at most %d ms; map version now %d%n", label, report.virtualShards().size(),
                report.units(), report.rows(), report.target(), report.duration().toMillis() / 1000.0,
                report.unitsPerSecond(), report.longestWritePause().toMillis(), report.mapVersion());
        report.warnings().forEach(warning -> out.println("    warning: " + warning));
    }

    void throughput(List<Workload.Phase> phases) {
        out.println();
        out.println("The workload (writer threads and a fan-out counter) while the shards changed:");
        out.printf("  %-28s  %7s  %6s  %6s  %8s  %14s  %20s%n", "phase", "seconds", "writes", "reads", "fan-outs",
                "units of work/s", "ShardMovingException");
        for (Workload.Phase phase : phases) {
            out.printf("  %-28s  %7.1f  %6d  %6d  %8d  %14.0f  %20d%n", phase.name(), phase.seconds(), phase.writes(),
                    phase.reads(), phase.fanOuts(), (phase.writes() + phase.reads()) / phase.seconds(),
                    phase.retryable());
        }
        out.println("  (ShardMovingException: a unit of work turned away while its virtual shard was switched; "
                + "nothing was written, the application may retry)");
    }

    /** The outcome of the check: the totals, and OK or every problem (at most 20 lines). */
    void verdict(Map<Long, AcknowledgedUnit> acknowledged, ObservedState.FanOutCounts fanOut, List<String> problems) {
        long statuses = acknowledged.values().stream().mapToLong(u -> u.statuses().size()).sum();
        long photos = acknowledged.values().stream().mapToLong(u -> u.photos().size()).sum();
        out.println();
        out.println("Checked, reading every shard's tables and the catalog's map directly with JDBC:");
        out.printf("  acknowledged: %d users, %d statuses, %d photos; fan-out counts: %d, %d, %d%n", acknowledged.size(),
                statuses, photos, fanOut.users(), fanOut.statuses(), fanOut.photos());
        if (problems.isEmpty()) {
            out.println("  every acknowledged write is present exactly once, every unit is whole on the shard the "
                    + "catalog's map names and on no other, reads saw the last acknowledged write, fan-out counts "
                    + "equal the totals: OK");
        } else {
            out.println("  " + problems.size() + " PROBLEM(S):");
            problems.stream().limit(20).forEach(problem -> out.println("    " + problem));
        }
    }

    /** "0-15, 32-47" for a sorted list of virtual shards. */
    static String ranges(List<Integer> sorted) {
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (i < sorted.size()) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            parts.add(i == j ? String.valueOf(sorted.get(i)) : sorted.get(i) + "-" + sorted.get(j));
            i = j + 1;
        }
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }
}
