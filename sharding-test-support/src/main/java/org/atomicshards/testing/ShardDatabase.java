package org.atomicshards.testing;

/**
 * One test shard database.
 *
 * @param id the shard id to configure, e.g. {@code s0}
 * @param url the JDBC URL of the database
 * @param user the user, or null for H2
 * @param password the password, or null for H2
 */
public record ShardDatabase(String id, String url, String user, String password) {

    @Override
    public String toString() {
        return id + "=" + url;
    }
}
