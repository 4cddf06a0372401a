package org.atomicshards.hibernate.internal.config;

import org.atomicshards.hibernate.ShardId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class ShardSpecTest {

    @ParameterizedTest
    @CsvSource({
            "jdbc:h2:mem:s0, true",
            "jdbc:h2:file:./data/s0;AUTO_SERVER=TRUE, true",
            "jdbc:h2:~/s0, true",
            "JDBC:H2:MEM:s0, true",
            "jdbc:h2:tcp://db:9092/s0, false",
            "jdbc:h2:ssl://db:9092/s0, false",
            "JDBC:H2:TCP://db/s0, false",
            "jdbc:postgresql://db/s0, false",
            "jdbc:mariadb://db/s0, false",
            "jdbc:statement-delay:5:h2:mem:s0, false"
    })
    void knowsAnEmbeddedH2DatabaseByItsUrl(String url, boolean embedded) {
        assertThat(new ShardSpec(ShardId.of("s0"), url, null, null, 4).embeddedH2()).isEqualTo(embedded);
    }
}
