package org.atomicshards.hibernate.internal.reshard;

/**
 * What a unit of work fences: the virtual shard of its key, and the unit and key text logged while that virtual
 * shard's units are being copied.
 */
public record FenceTarget(int bucket, String unitName, String keyText) {
}
