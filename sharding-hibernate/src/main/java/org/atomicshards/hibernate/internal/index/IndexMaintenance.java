package org.atomicshards.hibernate.internal.index;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import org.atomicshards.hibernate.DuplicateIndexValueException;
import org.atomicshards.hibernate.IndexReport;
import org.atomicshards.hibernate.ShardId;

/**
 * Builds an index from the rows already on the shards, and verifies (and cleans) an index against the rows. Both
 * walk every shard's rows of the indexed entity in id order, a page at a time, in read-only transactions of their own.
 *
 * <p>A build claims each row's entry as a writer would (a unique value another unit holds is a conflict, counted);
 * running it again writes the same entries again, so a stopped build is resumed by running it again. Writers keep the
 * index from the moment their factory booted with the annotation, so a row written during the build is never missed.
 */
final class IndexMaintenance {

    private static final int PAGE = 500;

    private final Supplier<List<ShardId>> shards;
    private final IndexShards indexShards;
    private final UnitReads units;
    private final IndexClaims claims;

    IndexMaintenance(Supplier<List<ShardId>> shards, IndexShards indexShards, UnitReads units, IndexClaims claims) {
        this.shards = shards;
        this.indexShards = indexShards;
        this.units = units;
        this.claims = claims;
    }

    IndexReport build(IndexDefinition index) {
        String token = UUID.randomUUID().toString();
        long rows = 0;
        long entries = 0;
        long conflicts = 0;
        for (ShardId shard : shards.get()) {
            Object after = null;
            List<Object[]> page;
            do {
                page = units.page(shard, index, after, PAGE);
                for (Object[] row : page) {
                    rows++;
                    after = row[0];
                    if (row[2] == null) {
                        continue;
                    }
                    try {
                        claims.claim(index, row[2], row[1], token);
                        entries++;
                    } catch (DuplicateIndexValueException heldElsewhere) {
                        conflicts++;
                    }
                }
            } while (page.size() == PAGE);
        }
        return new IndexReport(index.name(), rows, entries, 0, 0, conflicts, 0);
    }

    IndexReport verify(IndexDefinition index, boolean clean) {
        Map<String, Set<String>> holders = new HashMap<>(); // value digest -> unit keys holding it
        long rows = 0;
        for (ShardId shard : shards.get()) {
            Object after = null;
            List<Object[]> page;
            do {
                page = units.page(shard, index, after, PAGE);
                for (Object[] row : page) {
                    rows++;
                    after = row[0];
                    if (row[2] != null) {
                        holders.computeIfAbsent(IndexValues.digest(row[2]), digest -> new HashSet<>())
                                .add(IndexValues.keyText(row[1], index.name()));
                    }
                }
            } while (page.size() == PAGE);
        }
        Set<String> named = new HashSet<>(); // digest/key of every entry
        Set<String> namedDigests = new HashSet<>();
        long entries = 0;
        long stale = 0;
        long cleaned = 0;
        for (ShardId shard : indexShards.entryShards()) {
            List<IndexEntries.Entry> found = indexShards.on(shard, "read the entries of index " + index.name(),
                    store -> store.readAll(index));
            for (IndexEntries.Entry entry : found) {
                entries++;
                named.add(entry.digest() + "/" + entry.unitKey());
                namedDigests.add(entry.digest());
                Set<String> keys = holders.get(entry.digest());
                if (keys != null && keys.contains(entry.unitKey())) {
                    continue;
                }
                stale++;
                if (clean && entry.ageMillis() >= claims.claimTimeoutMillis()
                        && !stillHeld(index, entry)) {
                    cleaned += indexShards.write(indexShards.virtualShardOf(entry.digest()),
                            "delete a stale entry of index " + index.name(),
                            store -> store.delete(index, entry.digest(), entry.unitKey(), entry.token()));
                }
            }
        }
        long missing = 0;
        long conflicts = 0;
        for (Map.Entry<String, Set<String>> held : holders.entrySet()) {
            boolean conflict = index.unique() && held.getValue().size() > 1;
            if (conflict) {
                conflicts++;
            }
            for (String key : held.getValue()) {
                boolean found = named.contains(held.getKey() + "/" + key)
                        || conflict && namedDigests.contains(held.getKey());
                if (!found) {
                    missing++;
                }
            }
        }
        return new IndexReport(index.name(), rows, entries, missing, stale, conflicts, cleaned);
    }

    /** Whether the entry's unit holds a value with the entry's digest now (read afresh on its shard). */
    private boolean stillHeld(IndexDefinition index, IndexEntries.Entry entry) {
        Object key = IndexValues.key(entry.unitKey(), index.unit().keyType());
        return units.digestsHeld(index, key).contains(entry.digest());
    }
}
