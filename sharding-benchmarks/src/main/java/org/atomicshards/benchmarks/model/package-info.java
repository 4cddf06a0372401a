/**
 * The entities every benchmark side maps: {@link org.atomicshards.benchmarks.model.Customer} (the unit's root) and
 * {@link org.atomicshards.benchmarks.model.PurchaseOrder} (a member carrying the root's key).
 */
package org.atomicshards.benchmarks.model;
