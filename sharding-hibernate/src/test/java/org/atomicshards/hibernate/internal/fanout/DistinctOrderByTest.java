package org.atomicshards.hibernate.internal.fanout;

/** {@link DistinctOrderByContract} on H2. */
class DistinctOrderByTest extends DistinctOrderByContract {

    @Override
    ClientFixture fixture() {
        return ClientFixture.h2();
    }
}
