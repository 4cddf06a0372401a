/**
 * The aggregate functions a fan-out merges, one class per kind ({@link
 * org.atomicshards.hibernate.internal.fanout.aggregate.Count}, {@code Sum}, {@code Min}, {@code Max},
 * {@code Average}, {@code Every}, {@code Any}, {@code Bitwise}) behind {@link
 * org.atomicshards.hibernate.internal.fanout.aggregate.MergeableAggregate}, listed in {@link
 * org.atomicshards.hibernate.internal.fanout.aggregate.MergeableAggregates}. A kind says what each shard computes
 * for one call, how the shards' partial values combine, how the merged value is finished, and which string
 * comparisons of the merge it depends on. An aggregate that is not listed is refused before any shard is queried.
 *
 * <p>Adding an aggregate: one class implementing {@code MergeableAggregate}, and one line in
 * {@link org.atomicshards.hibernate.internal.fanout.aggregate.MergeableAggregates#standard}. Only aggregates whose
 * merge equals one database's answer exactly belong here (not {@code stddev} or {@code variance}, whose merged
 * floating-point result would differ in the last bits, nor {@code listagg}).
 *
 * <p>Also here: {@link org.atomicshards.hibernate.internal.fanout.aggregate.Values} (comparison and arithmetic on
 * shard values, as databases do them) and {@code AverageRounding} (AVG rounded as each database rounds it).
 * Private: this package depends on nothing else of the fan-out package.
 */
package org.atomicshards.hibernate.internal.fanout.aggregate;
