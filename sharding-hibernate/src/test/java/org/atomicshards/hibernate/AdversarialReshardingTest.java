package org.atomicshards.hibernate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.atomicshards.testing.DatabaseKind;

/**
 * The adversarial suite on embedded H2, short enough for the default build: movers killed at every step, paused past
 * their lease at three steps drawn from the seed (every step: {@link LostOperationTest}, and the real-database runs).
 */
class AdversarialReshardingTest extends AdversarialReshardingContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    @Override
    protected List<String> pauseSteps(Random random) {
        List<String> steps = new ArrayList<>(STEPS);
        Collections.shuffle(steps, random);
        return List.copyOf(steps.subList(0, 3));
    }

    @Override
    protected int raceRounds() {
        return 1;
    }
}
