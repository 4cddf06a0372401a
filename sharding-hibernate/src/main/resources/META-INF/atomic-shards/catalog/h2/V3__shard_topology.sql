-- Atomic Shards catalog schema, version 3 (h2): the run-time topology. Each shard records the JDBC URL it was added
-- with, WITHOUT credentials (every instance connects with the user and password of its own configuration), and how
-- it joined: CONFIG (listed in atomicshards.shards) or ADMIN (ShardAdmin.addShard at run time, so that a restart and
-- the other instances find it in the catalog). Status: ONLINE, DRAINING or RETIRED (removed; its id is not reused).
-- Usable as-is as a Flyway or Liquibase (sql) migration; the last statement records the version for the library.

alter table as_shard add column url varchar(1000);

alter table as_shard add column origin varchar(16);

insert into as_schema_version (version, description, installed_at) values (3, 'shard topology', current_timestamp);
