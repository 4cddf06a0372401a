/** Key and id generation: sequence blocks from the directory, Snowflake ids, version 7 UUIDs. */
package org.atomicshards.hibernate.internal.id;
