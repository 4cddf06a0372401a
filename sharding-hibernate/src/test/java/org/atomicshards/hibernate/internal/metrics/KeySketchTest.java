package org.atomicshards.hibernate.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeySketchTest {

    @Test
    void aKeySeenInMostSamplesIsTheTopWithItsExactCount() {
        KeySketch sketch = new KeySketch(4);
        for (int i = 0; i < 100; i++) {
            sketch.add(new UnitKey("Customer", 7L));
            if (i % 4 == 0) {
                sketch.add(new UnitKey("Customer", 1_000L + i)); // 25 different keys, more than the counters
            }
        }

        KeySketch.Top top = sketch.top();

        assertThat(top.key()).isEqualTo(new UnitKey("Customer", 7L));
        assertThat(top.atLeast()).isEqualTo(100);
        assertThat(top.samples()).isEqualTo(125);
    }

    @Test
    void keysWithTheSameHashCodeAreCountedApart() {
        // "Aa" and "BB" have the same String hash code, so these unit keys collide
        UnitKey first = new UnitKey("Aa", 1L);
        UnitKey second = new UnitKey("BB", 1L);
        assertThat(first.hashCode()).isEqualTo(second.hashCode());
        KeySketch sketch = new KeySketch(4);
        for (int i = 0; i < 30; i++) {
            sketch.add(first);
        }
        for (int i = 0; i < 10; i++) {
            sketch.add(second);
        }

        KeySketch.Top top = sketch.top();

        assertThat(top.key()).isEqualTo(first);
        assertThat(top.atLeast()).isEqualTo(30);
        assertThat(top.samples()).isEqualTo(40);
    }

    @Test
    void aClearedSketchHasNoTop() {
        KeySketch sketch = new KeySketch(2);
        sketch.add(new UnitKey("Customer", 1L));

        sketch.clear();

        assertThat(sketch.top()).isNull();
    }
}
