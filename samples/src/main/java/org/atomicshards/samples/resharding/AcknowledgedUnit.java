package org.atomicshards.samples.resharding;

import java.util.Set;
import java.util.UUID;

/**
 * What the application was told is committed for one unit: its root's last email, and the ids of every status and
 * photo written to it.
 *
 * @param email the email of the last acknowledged write
 * @param statuses the ids of the unit's statuses
 * @param photos the ids of the unit's photos
 */
public record AcknowledgedUnit(String email, Set<Long> statuses, Set<UUID> photos) {

    public AcknowledgedUnit {
        statuses = Set.copyOf(statuses);
        photos = Set.copyOf(photos);
    }
}
