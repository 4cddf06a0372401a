package org.atomicshards.samples.resharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/**
 * The check the main job relies on, fed broken states: each way a move could go wrong must be reported, naming the
 * row, and a correct state must pass.
 */
class PlacementCheckTest {

    private static final UUID PHOTO_1 = UUID.fromString("00000000-0000-7000-8000-000000000001");
    private static final UUID PHOTO_2 = UUID.fromString("00000000-0000-7000-8000-000000000002");

    /** Users 1 and 3 belong to s0, user 2 to s1. */
    private static final Map<Long, String> OWNERS = Map.of(1L, "s0", 2L, "s1", 3L, "s0");
    private static final Map<Integer, String> MAP = Map.of(0, "s0", 1, "s1");

    private final Map<Long, AcknowledgedUnit> acknowledged = Map.of(
            1L, new AcknowledgedUnit("a-v2", Set.of(10L, 11L), Set.of(PHOTO_1)),
            2L, new AcknowledgedUnit("b", Set.of(20L), Set.of()),
            3L, new AcknowledgedUnit("c", Set.of(30L), Set.of(PHOTO_2)));

    /** The correct state: every row once, where the map says. */
    private final Map<String, Rows> shards = new LinkedHashMap<>();

    PlacementCheckTest() {
        shards.put("s0", new Rows());
        shards.put("s1", new Rows());
        shards.get("s0").user(1, "a-v2").status(10, 1).status(11, 1).photo(PHOTO_1, 1);
        shards.get("s1").user(2, "b").status(20, 2);
        shards.get("s0").user(3, "c").status(30, 3).photo(PHOTO_2, 3);
    }

    private List<String> check() {
        return check(new ObservedState.FanOutCounts(3, 4, 2), MAP);
    }

    private List<String> check(ObservedState.FanOutCounts counts, Map<Integer, String> instanceMap) {
        List<ShardContents> contents = shards.entrySet().stream().map(e -> e.getValue().contents(e.getKey())).toList();
        return PlacementCheck.check(acknowledged, new ObservedState(contents, MAP, instanceMap, OWNERS::get, counts));
    }

    @Test
    void aCorrectStatePasses() {
        assertThat(check()).isEmpty();
    }

    @Test
    void aDuplicatedUnitIsReported() {
        shards.get("s1").user(1, "a-v2").status(10, 1).status(11, 1).photo(PHOTO_1, 1);

        assertThat(check()).contains(
                "duplicated: user 1 is on [s0, s1] (the map names s0)",
                "duplicated: status 10 of user 1 is on [s0, s1]",
                "duplicated: photo " + PHOTO_1 + " of user 1 is on [s0, s1]");
    }

    @Test
    void aMissingUnitIsReported() {
        shards.get("s1").users.remove(2L);
        shards.get("s1").statuses.remove(20L);

        assertThat(check(new ObservedState.FanOutCounts(2, 3, 2), MAP)).containsExactly(
                "missing: user 2 was acknowledged and is on no shard (the map names s1)",
                "missing: status 20 of user 2 was acknowledged and is on no shard",
                "fan-out: counted 2 users, 3 statuses, 2 photos; acknowledged 3, 4, 2");
    }

    @Test
    void aUnitOnTheWrongShardIsReported() {
        shards.get("s0").users.remove(3L);
        shards.get("s0").statuses.remove(30L);
        shards.get("s0").photos.remove(PHOTO_2);
        shards.get("s1").user(3, "c").status(30, 3).photo(PHOTO_2, 3);

        assertThat(check()).containsExactly(
                "wrong shard: user 3 is on s1, the map names s0",
                "wrong shard: status 30 of user 3 is on s1, the map names s0 for its unit",
                "wrong shard: photo " + PHOTO_2 + " of user 3 is on s1, the map names s0 for its unit");
    }

    @Test
    void aMemberLeftBehindOnAnotherShardIsReported() {
        shards.get("s0").statuses.remove(11L);
        shards.get("s1").status(11, 1);

        assertThat(check()).containsExactly("wrong shard: status 11 of user 1 is on s1, the map names s0 for its unit");
    }

    @Test
    void aLostUpdateIsReported() {
        shards.get("s0").user(1, "a-v1");

        assertThat(check()).containsExactly("lost update: user 1 on s0 has email 'a-v1', the last acknowledged is 'a-v2'");
    }

    @Test
    void aRowThatWasNeverAcknowledgedIsReported() {
        shards.get("s1").user(4, "d").status(40, 4);

        assertThat(check(new ObservedState.FanOutCounts(4, 5, 2), MAP)).contains(
                "unexpected: user 4 is on [s1] but was never acknowledged",
                "unexpected: status 40 is on [s1] but was never acknowledged");
    }

    @Test
    void aMemberUnderAnotherUserIsReported() {
        shards.get("s0").status(30, 1);

        assertThat(check()).containsExactly("wrong unit: status 30 belongs to user 1, it was written to user 3");
    }

    @Test
    void aFanOutCountOffTheTotalsIsReported() {
        assertThat(check(new ObservedState.FanOutCounts(3, 5, 2), MAP))
                .containsExactly("fan-out: counted 3 users, 5 statuses, 2 photos; acknowledged 3, 4, 2");
    }

    @Test
    void aFactoryRoutingWithAnotherMapThanTheCatalogsIsReported() {
        assertThat(check(new ObservedState.FanOutCounts(3, 4, 2), Map.of(0, "s0", 1, "s0"))).containsExactly(
                "map: the factory routes with another map than the catalog's latest: {1=s1 in the catalog, s0 routed}");
    }

    /** One shard's rows, editable. */
    private static final class Rows {
        final Map<Long, String> users = new HashMap<>();
        final Map<Long, Long> statuses = new HashMap<>();
        final Map<UUID, Long> photos = new HashMap<>();

        Rows user(long id, String email) {
            users.put(id, email);
            return this;
        }

        Rows status(long id, long user) {
            statuses.put(id, user);
            return this;
        }

        Rows photo(UUID id, long user) {
            photos.put(id, user);
            return this;
        }

        ShardContents contents(String shard) {
            return new ShardContents(shard, users, statuses, photos, 3);
        }
    }
}
