/**
 * Before: one database; after: four shards. The adoption sample run by the main job: a shop written for one
 * database, planned, migrated with Flyway, adopted in place and split to four shards.
 */
package org.atomicshards.samples.adoption;
