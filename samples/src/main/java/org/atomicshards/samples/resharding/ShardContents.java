package org.atomicshards.samples.resharding;

import java.util.Map;
import java.util.UUID;

/**
 * The rows one shard holds in its live tables, read directly from its database (not through the library).
 *
 * @param shard the shard's id
 * @param users per user id, its email
 * @param statuses per status id, the user it belongs to
 * @param photos per photo id, the user it belongs to
 * @param countries the reference rows (countries) on the shard
 */
public record ShardContents(String shard, Map<Long, String> users, Map<Long, Long> statuses, Map<UUID, Long> photos,
                            long countries) {

    public ShardContents {
        users = Map.copyOf(users);
        statuses = Map.copyOf(statuses);
        photos = Map.copyOf(photos);
    }

    /** Every row of the unit tables: users, statuses and photos. */
    public long rows() {
        return users.size() + statuses.size() + photos.size();
    }
}
