package org.atomicshards.hibernate.internal.fanout;

/** Test DTO for constructor projections. */
public record CategoryTotal(String category, Long total) {
}
