/**
 * The adoption sample's model: a shop written for one database (customers, their orders, the orders' lines, a
 * currency table) after its migration to shards: the lines carry their customer's key, the ids come from the library.
 */
package org.atomicshards.samples.adoption.model;
