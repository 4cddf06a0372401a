package org.atomicshards.testing;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Creates shard databases before the test class and drops them after it:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ShardDatabasesExtension DATABASES = ShardDatabasesExtension.of(DatabaseKind.H2, 4);
 *
 * @Test void something() {
 *     Map<String, Object> settings = DATABASES.settings();
 * }
 * }</pre>
 *
 * For a fresh set per test, use {@link ShardDatabases#create} in a try-with-resources instead.
 */
public final class ShardDatabasesExtension implements BeforeAllCallback, AfterAllCallback {

    private final DatabaseKind kind;
    private final int count;
    private ShardDatabases databases;

    private ShardDatabasesExtension(DatabaseKind kind, int count) {
        this.kind = kind;
        this.count = count;
    }

    public static ShardDatabasesExtension of(DatabaseKind kind, int count) {
        return new ShardDatabasesExtension(kind, count);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        databases = ShardDatabases.create(kind, count);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (databases != null) {
            databases.close();
            databases = null;
        }
    }

    /** The live databases. */
    public ShardDatabases databases() {
        if (databases == null) {
            throw new IllegalStateException("The shard databases exist only while the test class runs");
        }
        return databases;
    }

    public List<ShardDatabase> shards() {
        return databases().shards();
    }

    public Map<String, Object> settings() {
        return databases().settings();
    }
}
