-- Atomic Shards catalog schema, version 4 (postgresql): the move journal of online resharding. One row per operation
-- (as_move: its state, the batch in progress, owner and lease, error, figures) and one row per virtual shard it moves
-- (as_move_bucket: the primary key refuses a second operation on the same virtual shard while one is in progress).
-- Usable as-is as a Flyway or Liquibase (sql) migration; the last statement records the version for the library.

create table as_move (move_id varchar(36) not null primary key, kind varchar(16) not null,
    target_shard varchar(64) not null, buckets varchar(4000) not null, state varchar(16) not null,
    batch_no integer not null, checkpoint varchar(1000), owner_id varchar(64), lease_until timestamp,
    error varchar(1000), units_copied bigint not null, rows_copied bigint not null, started_at timestamp not null,
    updated_at timestamp not null);

create table as_move_bucket (bucket integer not null primary key, move_id varchar(36) not null,
    source_shard varchar(64) not null, batch_no integer not null);

insert into as_schema_version (version, description, installed_at) values (4, 'move journal', current_timestamp);
