/**
 * The Spring Boot sample: a shop whose atomic unit is the customer (with orders and loyalty events), countries as
 * reference data, plain Spring Data JPA repositories and a service of single-shard units of work.
 */
package org.atomicshards.samples.spring.shop;
