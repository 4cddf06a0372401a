-- Atomic Shards catalog schema, version 1 (postgresql): the shard directory.
-- Usable as-is as a Flyway or Liquibase (sql) migration; the last statement records the version for the library.
-- Statements end with ';' at the end of a line.

create table as_schema_version (version integer not null primary key, description varchar(200) not null,
    installed_at timestamp not null);

create table as_map_version (version integer not null primary key, virtual_shards integer not null,
    created_at timestamp not null, note varchar(200));

create table as_virtual_shard (version integer not null, virtual_shard integer not null,
    shard_id varchar(64) not null, status varchar(16) not null, primary key (version, virtual_shard));

create table as_placement (unit_name varchar(255) not null, unit_key varchar(255) not null,
    virtual_shard integer not null, primary key (unit_name, unit_key));

create table as_ring_member (unit_name varchar(255) not null, shard_id varchar(64) not null,
    primary key (unit_name, shard_id));

create table as_id_block (block_name varchar(255) not null primary key, next_value bigint not null);

create table as_operation_log (at_time timestamp not null, operation varchar(64) not null, detail varchar(1000) not null);

insert into as_schema_version (version, description, installed_at) values (1, 'catalog', current_timestamp);
