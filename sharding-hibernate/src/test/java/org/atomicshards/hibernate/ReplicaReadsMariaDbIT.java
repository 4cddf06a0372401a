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
    protected String skipOfAPausedReplicaAfterAMove() {
        return "LAGGING";
    }

    @Override
    protected String startCommand() {
        return "maria-start";
    }
}
