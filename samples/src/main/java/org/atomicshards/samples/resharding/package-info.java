/**
 * The main job's second part: seed 004's "arena before sales start". The sample starts on one shard that holds every
 * virtual shard, splits to four while a workload runs, and checks afterwards, by reading every shard directly, that
 * every acknowledged write is there exactly once, on the shard the catalog's map names.
 */
package org.atomicshards.samples.resharding;
