/**
 * The Atomic Shards annotation processor ({@link org.atomicshards.processor.AtomicShardsProcessor}). Wire it with
 * the compiler's {@code annotationProcessorPaths}; it depends on nothing beyond the JDK and the rule book.
 */
package org.atomicshards.processor;
