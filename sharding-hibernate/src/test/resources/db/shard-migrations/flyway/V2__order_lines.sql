create table order_line (id bigint not null primary key, order_id bigint not null, customer_id bigint not null,
    item varchar(100), foreign key (order_id) references purchase_order (id));
create index order_line_customer on order_line (customer_id, id);
