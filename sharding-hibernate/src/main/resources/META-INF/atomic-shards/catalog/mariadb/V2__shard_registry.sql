-- Atomic Shards catalog schema, version 2 (mariadb): the registry of physical shards and their status
-- (ONLINE; resharding adds DRAINING and RETIRED), so the directory knows a shard before it owns a virtual shard.
-- Usable as-is as a Flyway or Liquibase (sql) migration; the last statement records the version for the library.

create table as_shard (shard_id varchar(64) not null primary key, status varchar(16) not null,
    registered_at datetime(6) not null);

insert into as_schema_version (version, description, installed_at) values (2, 'shard registry', current_timestamp);
