package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class ReplicaReadsPostgresIT extends ReplicaReadsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }

    @Override
    protected String stopCommand() {
        return "pg-stop";
    }

    @Override
    protected String startCommand() {
        return "pg-start";
    }

    @Override
    protected boolean pausedReplicaReportsItsLag() {
        return true;
    }
}
