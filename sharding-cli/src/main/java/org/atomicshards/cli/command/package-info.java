/**
 * One class per command ({@code status}, {@code verify}, {@code schema}, {@code advise}) and the collectors and
 * reports behind them. A command on the application's shards extends {@link org.atomicshards.cli.command.ClusterCommand}.
 */
package org.atomicshards.cli.command;
