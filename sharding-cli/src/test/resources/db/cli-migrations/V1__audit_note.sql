create table audit_note (id bigint not null primary key, text varchar(100));
