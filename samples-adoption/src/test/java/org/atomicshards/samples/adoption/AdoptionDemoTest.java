package org.atomicshards.samples.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The adoption sample end to end on a smaller shop: five migrations planned and applied, the database adopted, four
 * shards each holding customers, stored rows and acknowledged writes each found once (the sample throws otherwise).
 */
class AdoptionDemoTest {

    @Test
    void oneDatabaseBecomesFourShards() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AdoptionDemo.run(60, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);

        assertThat(out).contains("Before: one database, 60 customers, 240 order lines",
                "Planned and applied 5 migrations ([V2__add_shard_key_columns.sql",
                "V6__drop_database_generated_ids.sql",
                "Adopted s0 in place: 64 virtual shards, new customer ids from 61", "After: four shards");
        assertThat(out).containsPattern("customers per shard \\[s0=\\d+, s1=\\d+, s2=\\d+, s3=\\d+\\]")
                .doesNotContainPattern("s\\d=0\\b");
    }
}
