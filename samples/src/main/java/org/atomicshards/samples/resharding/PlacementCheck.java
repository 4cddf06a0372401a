package org.atomicshards.samples.resharding;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Compares what the application was told is committed with what the shards hold. Reports, one line each:
 *
 * <ul>
 *   <li>a unit, status or photo that was acknowledged and is on no shard (<b>missing</b>);
 *   <li>one that is on more than one shard (<b>duplicated</b>);
 *   <li>one that is on a shard other than the one the map names for its unit (<b>wrong shard</b>), so a unit is whole
 *       on exactly one shard;
 *   <li>a user whose email is not the last acknowledged one (<b>lost update</b>), or a member under another user;
 *   <li>a row that was never acknowledged (<b>unexpected</b>: a write reported as failed that landed, or a leftover
 *       copy);
 *   <li>a fan-out count that differs from the acknowledged total;
 *   <li>a running factory whose map differs from the catalog's latest map.
 * </ul>
 * Pure: reads nothing itself, so a broken state can be fed to it.
 */
public final class PlacementCheck {

    private PlacementCheck() {
    }

    /** The problems found; empty if every acknowledged write is present exactly once, where the map says. */
    public static List<String> check(Map<Long, AcknowledgedUnit> acknowledged, ObservedState observed) {
        List<String> problems = new ArrayList<>();
        checkMaps(observed, problems);
        checkUnits(acknowledged, observed, problems);
        checkMembers(acknowledged, observed, problems);
        checkFanOut(acknowledged, observed.fanOut(), problems);
        return problems;
    }

    private static void checkMaps(ObservedState observed, List<String> problems) {
        if (!observed.catalogMap().equals(observed.instanceMap())) {
            Map<Integer, String> differing = new TreeMap<>();
            observed.catalogMap().forEach((bucket, shard) -> {
                if (!shard.equals(observed.instanceMap().get(bucket))) {
                    differing.put(bucket, shard + " in the catalog, " + observed.instanceMap().get(bucket) + " routed");
                }
            });
            problems.add("map: the factory routes with another map than the catalog's latest: " + differing);
        }
    }

    private static void checkUnits(Map<Long, AcknowledgedUnit> acknowledged, ObservedState observed,
                                   List<String> problems) {
        Map<Long, List<String>> holders = new TreeMap<>();
        for (ShardContents shard : observed.shards()) {
            shard.users().keySet().forEach(id -> holders.computeIfAbsent(id, k -> new ArrayList<>()).add(shard.shard()));
        }
        for (Map.Entry<Long, AcknowledgedUnit> entry : new TreeMap<>(acknowledged).entrySet()) {
            long id = entry.getKey();
            List<String> on = holders.getOrDefault(id, List.of());
            String owner = observed.ownerOf().apply(id);
            if (on.isEmpty()) {
                problems.add("missing: user " + id + " was acknowledged and is on no shard (the map names " + owner + ")");
                continue;
            }
            if (on.size() > 1) {
                problems.add("duplicated: user " + id + " is on " + on + " (the map names " + owner + ")");
            } else if (!on.get(0).equals(owner)) {
                problems.add("wrong shard: user " + id + " is on " + on.get(0) + ", the map names " + owner);
            }
            for (ShardContents shard : observed.shards()) {
                String email = shard.users().get(id);
                if (email != null && !email.equals(entry.getValue().email())) {
                    problems.add("lost update: user " + id + " on " + shard.shard() + " has email '" + email
                            + "', the last acknowledged is '" + entry.getValue().email() + "'");
                }
            }
        }
        holders.keySet().stream().filter(id -> !acknowledged.containsKey(id)).forEach(id -> problems.add(
                "unexpected: user " + id + " is on " + holders.get(id) + " but was never acknowledged"));
    }

    private static void checkMembers(Map<Long, AcknowledgedUnit> acknowledged, ObservedState observed,
                                     List<String> problems) {
        Map<Long, Long> statuses = new TreeMap<>();
        Map<UUID, Long> photos = new TreeMap<>();
        acknowledged.forEach((user, unit) -> {
            unit.statuses().forEach(id -> statuses.put(id, user));
            unit.photos().forEach(id -> photos.put(id, user));
        });
        checkMembers("status", statuses, observed.shards().stream()
                .collect(Collectors.toMap(ShardContents::shard, ShardContents::statuses, (a, b) -> a, LinkedHashMap::new)),
                observed, problems);
        checkMembers("photo", photos, observed.shards().stream()
                .collect(Collectors.toMap(ShardContents::shard, ShardContents::photos, (a, b) -> a, LinkedHashMap::new)),
                observed, problems);
    }

    /**
     * @param written per acknowledged member id, the user it was written to
     * @param stored per shard, per member id found there, the user it belongs to
     */
    private static <K extends Comparable<K>> void checkMembers(String kind, Map<K, Long> written,
                                                               Map<String, Map<K, Long>> stored,
                                                               ObservedState observed, List<String> problems) {
        Map<K, List<String>> holders = new TreeMap<>();
        Map<K, Long> storedUser = new TreeMap<>();
        stored.forEach((shard, rows) -> rows.forEach((id, user) -> {
            holders.computeIfAbsent(id, k -> new ArrayList<>()).add(shard);
            Long other = storedUser.putIfAbsent(id, user);
            if (other != null && !other.equals(user)) {
                problems.add("duplicated: " + kind + " " + id + " belongs to user " + other + " on one shard and to user "
                        + user + " on " + shard);
            }
        }));
        written.forEach((id, user) -> {
            List<String> on = holders.getOrDefault(id, List.of());
            String owner = observed.ownerOf().apply(user);
            if (on.isEmpty()) {
                problems.add("missing: " + kind + " " + id + " of user " + user + " was acknowledged and is on no shard");
                return;
            }
            if (on.size() > 1) {
                problems.add("duplicated: " + kind + " " + id + " of user " + user + " is on " + on);
            } else if (!on.get(0).equals(owner)) {
                problems.add("wrong shard: " + kind + " " + id + " of user " + user + " is on " + on.get(0)
                        + ", the map names " + owner + " for its unit");
            }
            if (!user.equals(storedUser.get(id))) {
                problems.add("wrong unit: " + kind + " " + id + " belongs to user " + storedUser.get(id)
                        + ", it was written to user " + user);
            }
        });
        holders.forEach((id, on) -> {
            if (!written.containsKey(id)) {
                problems.add("unexpected: " + kind + " " + id + " is on " + on + " but was never acknowledged");
            }
        });
    }

    private static void checkFanOut(Map<Long, AcknowledgedUnit> acknowledged, ObservedState.FanOutCounts fanOut,
                                     List<String> problems) {
        long users = acknowledged.size();
        long statuses = acknowledged.values().stream().mapToLong(u -> u.statuses().size()).sum();
        long photos = acknowledged.values().stream().mapToLong(u -> u.photos().size()).sum();
        if (fanOut.users() != users || fanOut.statuses() != statuses || fanOut.photos() != photos) {
            problems.add("fan-out: counted " + fanOut.users() + " users, " + fanOut.statuses() + " statuses, "
                    + fanOut.photos() + " photos; acknowledged " + users + ", " + statuses + ", " + photos);
        }
    }
}
