package org.atomicshards.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.MoveReport;
import org.junit.jupiter.api.Test;

class MoveReportsTest {

    private static final String UNINDEXED = "On shard 's0' no index leads with the column the move finds each unit's "
            + "rows by, in photo(user_id).";

    @Test
    void aMovesWarningsFollowItsLineAndAreInItsJson() {
        MoveReport report = new MoveReport("op-1", Set.of(0, 1, 2, 3), ShardId.of("s1"), 52, 210,
                Duration.ofMillis(1204), List.of(Duration.ofMillis(40)), 5, List.of(UNINDEXED));

        assertThat(MoveReports.text(report).lines().toList()).containsExactly(
                "moved virtual shards 0-3 to s1: 52 units, 210 rows in 1.204 s (43.2 units/s), longest write pause 40 "
                        + "ms over 1 batch(es), map version 5, operation op-1",
                "  warning: " + UNINDEXED);
        assertThat(MoveReports.json(report)).containsEntry("warnings", List.of(UNINDEXED));
    }

    @Test
    void aMoveWithoutWarningsIsOneLine() {
        MoveReport report = new MoveReport("op-2", Set.of(8), ShardId.of("s2"), 1, 3, Duration.ofMillis(10),
                List.of(Duration.ofMillis(2)), 6);

        assertThat(MoveReports.text(report)).doesNotContain("warning").hasLineCount(1);
        assertThat(MoveReports.json(report)).containsEntry("warnings", List.of());
    }
}
