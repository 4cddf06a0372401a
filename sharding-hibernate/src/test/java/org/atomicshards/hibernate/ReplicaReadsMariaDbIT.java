package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class ReplicaReadsMariaDbIT extends ReplicaReadsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }

    @Override
    protected String stopCommand() {
        return "maria-stop";
    }

    @Override
    protected boolean pausedReplicaReportsItsLag() {
        return false;
    }

    @Override
    protected String startCommand() {
        return "maria-start";
    }
}
