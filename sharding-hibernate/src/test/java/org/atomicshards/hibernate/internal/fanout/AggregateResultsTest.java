package org.atomicshards.hibernate.internal.fanout;

/** {@link AggregateResultsContract} on H2. */
class AggregateResultsTest extends AggregateResultsContract {

    @Override
    ClientFixture fixture() {
        return ClientFixture.h2();
    }
}
