/**
 * One class per command ({@code status}, {@code verify}, {@code schema}, {@code advise}, and the resharding commands
 * {@code add-shard}, {@code move}, {@code split}, {@code merge}, {@code drain}, {@code rebalance}, {@code resume},
 * {@code operations}) and the collectors and reports behind them. A command on the application's shards extends
 * {@link org.atomicshards.cli.command.ClusterCommand}; one that changes the topology through the runtime's
 * {@code ShardAdmin} extends {@link org.atomicshards.cli.command.AdminCommand}, and one that moves virtual shards
 * {@link org.atomicshards.cli.command.MovingCommand} (move options, progress on stderr).
 */
package org.atomicshards.cli.command;
