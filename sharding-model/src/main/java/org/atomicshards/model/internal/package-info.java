/**
 * The rules of the rule book, one small class each, and their order ({@code RuleBook}). Private to Atomic Shards:
 * use {@link org.atomicshards.model.AtomicUnitRules}.
 */
package org.atomicshards.model.internal;
