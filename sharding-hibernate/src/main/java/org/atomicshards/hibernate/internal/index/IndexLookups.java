package org.atomicshards.hibernate.internal.index;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.hibernate.Hibernate;

/**
 * The read side of an index: the entries of the values (one shard per value), the units they name (on the units'
 * shards), each checked against the unit itself, and exactly (a case-insensitive collation does not make
 * {@code Alice} a value of {@code alice}). An entry whose unit does not hold its value and whose claim is older
 * than the claim timeout is deleted on the way (unless a writer took it or let go of it since it was read).
 */
final class IndexLookups {

    /** The entries of some values: unit keys by owning shard, and every entry read with its virtual shard. */
    record Found(Map<ShardId, Set<Object>> keysByShard, List<Located> entries) {
    }

    /** An entry and the virtual shard it lives by. */
    record Located(int virtualShard, IndexEntries.Entry entry) {
    }

    private final IndexShards shards;
    private final UnitReads units;
    private final long claimTimeoutMillis;

    IndexLookups(IndexShards shards, UnitReads units, long claimTimeoutMillis) {
        this.shards = shards;
        this.units = units;
        this.claimTimeoutMillis = claimTimeoutMillis;
    }

    /** The entries of {@code values} (converted to the attribute's type already; nulls left out). */
    Found entries(IndexDefinition index, Collection<?> values) {
        Map<Integer, Set<String>> digestsByVirtualShard = new LinkedHashMap<>();
        for (Object value : values) {
            String digest = IndexValues.digest(value);
            digestsByVirtualShard.computeIfAbsent(shards.virtualShardOf(digest), any -> new LinkedHashSet<>())
                    .add(digest);
        }
        List<Located> located = new ArrayList<>();
        Map<ShardId, Set<Object>> keysByShard = new LinkedHashMap<>();
        digestsByVirtualShard.forEach((virtualShard, digests) -> {
            List<IndexEntries.Entry> entries = shards.read(virtualShard, "read entries of index " + index.name(),
                    store -> store.read(index, digests));
            for (IndexEntries.Entry entry : entries) {
                located.add(new Located(virtualShard, entry));
                Object key = IndexValues.key(entry.unitKey(), index.unit().keyType());
                ShardId owner = index.unit().ownerOf(key);
                if (owner != null) {
                    keysByShard.computeIfAbsent(owner, any -> new LinkedHashSet<>()).add(key);
                }
            }
        });
        return new Found(keysByShard, located);
    }

    /** The entities of {@code type} holding one of {@code values}, read on their units' shards. */
    <T> List<T> find(IndexDefinition index, Class<T> type, Collection<?> values) {
        if (values.isEmpty()) {
            return List.of();
        }
        Found found = entries(index, values);
        Set<String> wanted = new HashSet<>();
        values.forEach(value -> wanted.add(IndexValues.digest(value)));
        List<T> result = new ArrayList<>();
        Set<String> confirmed = new HashSet<>();
        Set<Object> keys = new LinkedHashSet<>();
        found.keysByShard().values().forEach(keys::addAll);
        for (T entity : units.holders(index, type, keys, values)) {
            String entry = entry(index, entity);
            if (wanted.contains(entry.substring(entry.indexOf('/') + 1))) { // exact, whatever the collation
                result.add(entity);
                confirmed.add(entry);
            }
        }
        if (type == index.entity()) {
            cleanStale(index, found, confirmed);
        }
        return result;
    }

    /** Deletes the entries found that no row confirmed and that no writer has claimed for the claim timeout. */
    private void cleanStale(IndexDefinition index, Found found, Set<String> confirmed) {
        for (Located located : found.entries()) {
            IndexEntries.Entry entry = located.entry();
            if (entry.ageMillis() >= claimTimeoutMillis && !confirmed.contains(entry.unitKey() + "/" + entry.digest())) {
                shards.write(located.virtualShard(), "delete a stale entry of index " + index.name(),
                        store -> store.delete(index, entry.digest(), entry.unitKey(), entry.token()));
            }
        }
    }

    /** {@code <unit key>/<value digest>} of the entry that {@code entity} confirms. */
    private static String entry(IndexDefinition index, Object entity) {
        MemberKey memberKey = index.unit().memberKey(Hibernate.getClass(entity));
        Object value = memberKey.persister().getPropertyValue(entity, index.attribute());
        return IndexValues.keyText(memberKey.keyOf(entity), index.name()) + "/" + IndexValues.digest(value);
    }
}
