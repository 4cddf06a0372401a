package org.atomicshards.hibernate.internal.reshard.lease;

import java.time.Duration;
import java.util.Map;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;

/**
 * The write lease settings ({@link ShardingSettings#RESHARDING_CONNECTION_LEASE},
 * {@link ShardingSettings#RESHARDING_LEASE_GRACE}, {@link ShardingSettings#RESHARDING_END_LEASED_SESSIONS}), read and
 * checked at boot.
 *
 * @param enabled     whether this instance takes leases
 * @param grace       how long an operation waits for leased sessions to be given back
 * @param endSessions whether an operation then ends those sessions (else it stops)
 */
public record LeaseSettings(boolean enabled, Duration grace, boolean endSessions) {

    /**
     * @throws ShardConfigurationException naming the setting and its fix, for a value that is not a boolean or a number
     *         of milliseconds, or leases asked for on an instance that never refreshes
     */
    public static LeaseSettings read(Map<String, Object> properties, long refreshIntervalMillis) {
        Object lease = properties.get(ShardingSettings.RESHARDING_CONNECTION_LEASE);
        String text = lease == null ? null : lease.toString().trim();
        if (text != null && !text.equals("true") && !text.equals("false")) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.RESHARDING_CONNECTION_LEASE
                    + "' has value '" + lease + "', which is neither true nor false. Fix: "
                    + ShardingSettings.RESHARDING_CONNECTION_LEASE + "=true (the default) or false");
        }
        if ("true".equals(text) && refreshIntervalMillis <= 0) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.RESHARDING_CONNECTION_LEASE
                    + "' is true but '" + ShardingSettings.CATALOG_REFRESH_INTERVAL + "' is 0: an instance that never "
                    + "refreshes cannot give its leased connections back when a resharding operation starts. Fix: set "
                    + ShardingSettings.CATALOG_REFRESH_INTERVAL + " above 0 (e.g. 5000), or "
                    + ShardingSettings.RESHARDING_CONNECTION_LEASE + "=false");
        }
        boolean enabled = text == null ? refreshIntervalMillis > 0 : text.equals("true");
        Object grace = properties.get(ShardingSettings.RESHARDING_LEASE_GRACE);
        long graceMillis = ShardingSettings.DEFAULT_RESHARDING_LEASE_GRACE;
        if (grace != null) {
            try {
                graceMillis = Long.parseLong(grace.toString().trim());
                if (graceMillis < 0) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new ShardConfigurationException("Setting '" + ShardingSettings.RESHARDING_LEASE_GRACE
                        + "' has value '" + grace + "', which is not a number of milliseconds >= 0. Fix: e.g. "
                        + ShardingSettings.RESHARDING_LEASE_GRACE + "="
                        + ShardingSettings.DEFAULT_RESHARDING_LEASE_GRACE);
            }
        }
        Object end = properties.get(ShardingSettings.RESHARDING_END_LEASED_SESSIONS);
        String endText = end == null ? "false" : end.toString().trim();
        if (!endText.equals("true") && !endText.equals("false")) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.RESHARDING_END_LEASED_SESSIONS
                    + "' has value '" + end + "', which is neither true nor false. Fix: "
                    + ShardingSettings.RESHARDING_END_LEASED_SESSIONS + "=false (the default) or true");
        }
        return new LeaseSettings(enabled, Duration.ofMillis(graceMillis), endText.equals("true"));
    }
}
