package org.atomicshards.model.internal;

/**
 * The valid shard key of an atomic unit's root.
 *
 * @param root the root entity (top of its hierarchy)
 * @param key  the root's single, supported {@code @ShardKey} attribute
 */
record RootKey(String root, KeyAttribute key) {

    /** Boxed Java type or embeddable class name. */
    String keyType() {
        return key.keyType();
    }

    String path() {
        return key.path();
    }

    /** True when the key is (part of) the root's id, so a foreign key to the root holds it. */
    boolean isId() {
        return key.inId();
    }
}
