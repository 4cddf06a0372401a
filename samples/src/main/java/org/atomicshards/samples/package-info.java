/** The main job: seed 004's User / Status / Photo model on four embedded H2 shards. */
package org.atomicshards.samples;
