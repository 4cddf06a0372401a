package org.atomicshards.hibernate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.atomicshards.testing.DatabaseKind;

/**
 * The adversarial suite on embedded H2, short enough for the default build: movers killed at five steps and paused past
 * their lease at two, drawn from the seed, four races of each kind. The real-database runs kill and pause at every
 * step and race six times; {@link OnlineMoveTest} and {@link LostOperationTest} take each step on H2, without the workloads.
 */
class AdversarialReshardingTest extends AdversarialReshardingContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    @Override
    protected List<String> killSteps(Random random) {
        return drawn(5, random);
    }

    @Override
    protected List<String> pauseSteps(Random random) {
        return drawn(2, random);
    }

    private static List<String> drawn(int count, Random random) {
        List<String> steps = new ArrayList<>(STEPS);
        Collections.shuffle(steps, random);
        return STEPS.stream().filter(steps.subList(0, count)::contains).toList();
    }

    @Override
    protected int raceRounds() {
        return 4;
    }
}
