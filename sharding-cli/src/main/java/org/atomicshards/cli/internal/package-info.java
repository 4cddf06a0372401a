/**
 * What every command shares: the settings file and environment, the entity model, the booted shards
 * ({@link org.atomicshards.cli.internal.Cluster}), one-line errors with exit codes, JSON and text tables, the
 * options of a move and its progress display (a bar on a terminal, lines otherwise). Private to the tool.
 */
package org.atomicshards.cli.internal;
