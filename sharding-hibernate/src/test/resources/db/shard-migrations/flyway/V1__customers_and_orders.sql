create table customer (id bigint not null primary key, name varchar(100) not null);
create table purchase_order (id bigint not null primary key, customer_id bigint not null, note varchar(100),
    foreign key (customer_id) references customer (id));
create index purchase_order_customer on purchase_order (customer_id, id);
create table currency (code varchar(3) not null primary key, name varchar(100));
