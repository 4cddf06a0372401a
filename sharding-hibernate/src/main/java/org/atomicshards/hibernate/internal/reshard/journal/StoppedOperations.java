package org.atomicshards.hibernate.internal.reshard.journal;

import java.util.List;
import java.util.StringJoiner;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.admin.OperationStatus;
import org.atomicshards.hibernate.internal.reshard.Ranges;

/**
 * The resharding operations no run holds, read from the catalog when a unit of work or a fan-out has waited in vain:
 * a batch left between its switch and its release stays there until the operation is resumed, and the failure says
 * so, naming the operation and the fix, instead of advising to try again. Read only on such a failure.
 */
public final class StoppedOperations {

    private final Supplier<List<OperationStatus>> stopped;

    /** @param stopped the unfinished operations no run holds (stopped, or whose owner's lease lapsed) */
    public StoppedOperations(Supplier<List<OperationStatus>> stopped) {
        this.stopped = stopped;
    }

    /**
     * Why the stopped operations whose batch in progress is in journal state {@code state} and that move {@code
     * bucket} (any, for a negative one) keep it from being answered, and the fix; null if there are none or the
     * catalog cannot be read.
     *
     * @param effect what such an operation does until it is resumed, e.g. "its writes wait"
     */
    public String explain(String state, int bucket, String effect) {
        List<OperationStatus> matching;
        try {
            Predicate<OperationStatus> moves = op -> bucket < 0 || Ranges.contains(op.virtualShards(), bucket);
            matching = stopped.get().stream().filter(op -> state.equals(op.state())).filter(moves).toList();
        } catch (RuntimeException catalogDown) {
            return null;
        }
        if (matching.isEmpty()) {
            return null;
        }
        StringJoiner operations = new StringJoiner("; ");
        for (OperationStatus op : matching) {
            operations.add(op.kind() + " " + op.id() + " of virtual shards " + op.virtualShards() + " to shard '"
                    + op.target() + "' (batch " + op.batch() + ", " + op.state() + ")");
        }
        return "No instance runs the resharding operation" + (matching.size() == 1 ? " " : "s ") + operations + ", "
                + effect + " until it is resumed. Fix: run ShardAdmin.resume() (command line: resume); an instance "
                + "with " + ShardingSettings.RESHARDING_AUTO_RESUME + " at its default (after_switch) or true does so "
                + "at its next topology refresh";
    }
}
