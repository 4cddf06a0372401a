package org.atomicshards.hibernate.internal.index;

import java.util.List;

import org.atomicshards.hibernate.DuplicateIndexValueException;
import org.atomicshards.hibernate.ShardIndexException;

/**
 * The index side of a write, after Vitess' consistent lookup: a unit of work <em>claims</em> the entry of a value it
 * gives a row before its own transaction commits (the entry is committed first), and <em>marks</em> the entry of a
 * value it takes away; once its transaction has committed it deletes the entries it marked (if no later unit of work
 * took them over), and once it has rolled back the entries it claimed (if its unit does not hold the value).
 *
 * <p>Claims of a unique index decide uniqueness: an entry of another unit is taken over only if that unit does not
 * hold the value <em>and</em> the entry has not been claimed for the claim timeout, so a unit of work still in flight
 * (which commits within half the timeout, or not at all) is never robbed of its value.
 */
final class IndexClaims {

    private static final int ATTEMPTS = 8;

    private final IndexShards shards;
    private final UnitReads units;
    private final long claimTimeoutMillis;

    IndexClaims(IndexShards shards, UnitReads units, long claimTimeoutMillis) {
        this.shards = shards;
        this.units = units;
        this.claimTimeoutMillis = claimTimeoutMillis;
    }

    long claimTimeoutMillis() {
        return claimTimeoutMillis;
    }

    /**
     * Claims the entry of {@code value} for the unit {@code key}, committed on the entry's shard when this returns.
     *
     * @throws DuplicateIndexValueException if the index is unique and another unit holds the value, or claimed it
     *         within the claim timeout
     */
    void claim(IndexDefinition index, Object value, Object key, String token) {
        String digest = IndexValues.digest(value);
        String keyText = IndexValues.keyText(key, index.name());
        int virtualShard = shards.virtualShardOf(digest);
        String what = "claim an entry of index " + index.name();
        boolean claimed = shards.writeInUnitOfWork(virtualShard, what, entries -> {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                if (entries.insert(index, digest, virtualShard, keyText, token)) {
                    return true;
                }
                if (!index.unique()) {
                    if (entries.reclaim(index, digest, keyText, token) == 1) {
                        return true;
                    }
                    continue; // deleted meanwhile: insert again
                }
                List<IndexEntries.Entry> found = entries.read(index, digest);
                if (found.isEmpty()) {
                    continue;
                }
                IndexEntries.Entry entry = found.get(0);
                if (entry.unitKey().equals(keyText)) {
                    if (entries.reclaim(index, digest, keyText, token) == 1) {
                        return true;
                    }
                    continue;
                }
                if (entry.ageMillis() < claimTimeoutMillis || heldBy(index, entry.unitKey(), value)) {
                    throw duplicate(index);
                }
                if (entries.takeOver(index, digest, entry.unitKey(), entry.token(), keyText, token) == 1) {
                    return true;
                }
            }
            return false;
        });
        if (!claimed) {
            throw new ShardIndexException("Could not claim an entry of index " + index.name() + " in " + ATTEMPTS
                    + " attempts: other units of work kept changing it. Nothing was committed; run the unit of "
                    + "work again");
        }
    }

    /** Marks the entry of {@code value} of the unit {@code key} as let go of by {@code token}. */
    void mark(IndexDefinition index, Object value, Object key, String token) {
        String digest = IndexValues.digest(value);
        String keyText = IndexValues.keyText(key, index.name());
        shards.writeInUnitOfWork(shards.virtualShardOf(digest), "mark an entry of index " + index.name(),
                entries -> entries.mark(index, digest, keyText, token));
    }

    /**
     * Deletes the entry of {@code value} of the unit {@code key} if {@code token} was the last to claim or mark it and
     * the unit holds no such value.
     *
     * @param afterCommit true once the unit of work that marked the entry committed a row without the value, under
     *                    its unit's lock: then only a member index asks the unit (another row may hold the value);
     *                    false after a rollback, when the unit is always asked
     * @return whether the entry was deleted
     */
    boolean release(IndexDefinition index, Object value, Object key, String token, boolean afterCommit) {
        if ((!afterCommit || !index.onRoot()) && holds(index, key, value)) {
            return false;
        }
        String digest = IndexValues.digest(value);
        String keyText = IndexValues.keyText(key, index.name());
        return shards.write(shards.virtualShardOf(digest), "delete an entry of index " + index.name(),
                entries -> entries.delete(index, digest, keyText, token)) == 1;
    }

    private boolean heldBy(IndexDefinition index, String keyText, Object value) {
        return holds(index, IndexValues.key(keyText, index.unit().keyType()), value);
    }

    private boolean holds(IndexDefinition index, Object key, Object value) {
        return units.holds(index, key, value);
    }

    private static DuplicateIndexValueException duplicate(IndexDefinition index) {
        return new DuplicateIndexValueException(index.entity().getName(), index.attribute(), index.valueType());
    }
}
