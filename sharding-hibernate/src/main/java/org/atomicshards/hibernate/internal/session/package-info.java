/**
 * The public factory's implementation: the facade {@code ShardedSessionFactoryImpl} delegates to one class per job:
 * units of work ({@code UnitsOfWork}, {@code UnitFailures}), write routing and key generation ({@code WriteRouting}),
 * routing by id ({@code IdRouting}, routes decided at boot), reference-data replication
 * ({@code ReferenceDataReplication}), asking the shards ({@code ShardProbe}) and the fan-out wiring
 * ({@code FanOutWiring}).
 */
package org.atomicshards.hibernate.internal.session;
