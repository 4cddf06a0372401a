/**
 * The main job: seed 004's User / Status / Photo model on four embedded H2 shards, then resharded online from one
 * shard to four ({@link org.atomicshards.samples.resharding}).
 */
package org.atomicshards.samples;
