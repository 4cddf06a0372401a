create table health_note (id bigint not null primary key);
