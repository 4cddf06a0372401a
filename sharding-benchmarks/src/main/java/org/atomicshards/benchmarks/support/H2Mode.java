package org.atomicshards.benchmarks.support;

/** The H2 compatibility settings a side needs in its JDBC URLs. */
public enum H2Mode {

    /** H2's own SQL; what plain Hibernate and Atomic Shards use with Hibernate's {@code H2Dialect}. */
    NATIVE(""),

    /**
     * MySQL compatibility, for ShardingSphere: it parses H2 traffic with its MySQL grammar, so Hibernate must speak
     * MySQL ({@code MySQLDialect}) and H2 must accept it. These are the settings its users run H2 with
     * ({@code DATABASE_TO_LOWER} breaks ShardingSphere's metadata loading, so it is not set).
     */
    MYSQL(";MODE=MySQL;IGNORECASE=TRUE;CASE_INSENSITIVE_IDENTIFIERS=TRUE");

    private final String urlSettings;

    H2Mode(String urlSettings) {
        this.urlSettings = urlSettings;
    }

    String urlSettings() {
        return urlSettings;
    }
}
