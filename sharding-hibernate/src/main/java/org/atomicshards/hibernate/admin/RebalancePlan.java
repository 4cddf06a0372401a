package org.atomicshards.hibernate.admin;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;

/**
 * The moves that even out the virtual shards over the shards, and what each shard owns before and after.
 *
 * @param moves the moves, in the order they run
 * @param before virtual shards per shard now
 * @param after virtual shards per shard once the moves ran
 */
public record RebalancePlan(List<PlannedMove> moves, Map<ShardId, Integer> before, Map<ShardId, Integer> after) {

    /** One move of the plan. */
    public record PlannedMove(ShardId source, ShardId target, Set<Integer> virtualShards) {
    }

    /** The plan as text, one move per line, for a dry run. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("rebalance plan: before " + before + ", after " + after);
        for (PlannedMove move : moves) {
            text.append(System.lineSeparator()).append("  move ").append(move.virtualShards().size())
                    .append(" virtual shards ").append(move.source()).append(" -> ").append(move.target())
                    .append(": ").append(move.virtualShards());
        }
        if (moves.isEmpty()) {
            text.append(System.lineSeparator()).append("  nothing to move");
        }
        return text.toString();
    }
}
