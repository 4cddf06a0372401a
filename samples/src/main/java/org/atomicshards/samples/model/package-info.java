/**
 * Seed 004's social-network model: a {@link org.atomicshards.samples.model.User} is the root of an atomic unit with
 * its {@link org.atomicshards.samples.model.Status} updates and {@link org.atomicshards.samples.model.Photo}s;
 * {@link org.atomicshards.samples.model.Country} is reference data on every shard.
 */
package org.atomicshards.samples.model;
