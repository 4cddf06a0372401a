--liquibase formatted sql

--changeset atomicshards:1
create table customer (id bigint not null primary key, name varchar(100) not null);
create table purchase_order (id bigint not null primary key, customer_id bigint not null, note varchar(100),
    foreign key (customer_id) references customer (id));
create index purchase_order_customer on purchase_order (customer_id, id);
create table currency (code varchar(3) not null primary key, name varchar(100));

--changeset atomicshards:2
create table order_line (id bigint not null primary key, order_id bigint not null, customer_id bigint not null,
    item varchar(100), foreign key (order_id) references purchase_order (id));
create index order_line_customer on order_line (customer_id, id);
