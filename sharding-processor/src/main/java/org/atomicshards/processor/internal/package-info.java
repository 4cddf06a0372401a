/**
 * The processor's internals: reading the JPA model from {@code javax.lang.model} mirrors, describing it for the
 * rule book, printing diagnostics on the exact element, writing the routing metadata. Private to Atomic Shards.
 */
package org.atomicshards.processor.internal;
