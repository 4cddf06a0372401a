package org.atomicshards.hibernate.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import org.atomicshards.hibernate.internal.config.ShardTimeouts;
import org.junit.jupiter.api.Test;

/** The time limits reach the JDBC driver as properties, in the driver's unit, unless the shard's URL sets them. */
class DriverTimeoutsTest {

    private final ShardTimeouts timeouts = new ShardTimeouts(2_000, 1_000, 3_000, 4_000);

    @Test
    void postgresqlGetsSecondsAndKeepsWhatTheUrlSets() {
        HikariConfig config = new HikariConfig();
        DriverTimeouts.apply(config, "jdbc:postgresql://db:5432/shop?socketTimeout=60", timeouts);

        assertThat(config.getDataSourceProperties())
                .containsEntry("connectTimeout", "2")
                .containsEntry("loginTimeout", "2")
                .containsEntry("cancelSignalTimeout", "1")
                .containsEntry("tcpKeepAlive", "true")
                .doesNotContainKey("socketTimeout");
    }

    @Test
    void mariadbGetsMilliseconds() {
        HikariConfig config = new HikariConfig();
        DriverTimeouts.apply(config, "jdbc:mariadb://db:3306/shop", timeouts);

        assertThat(config.getDataSourceProperties())
                .containsEntry("connectTimeout", "2000")
                .containsEntry("socketTimeout", "4000")
                .containsEntry("tcpKeepAlive", "true");
    }

    @Test
    void h2GetsNothing() {
        HikariConfig config = new HikariConfig();
        DriverTimeouts.apply(config, "jdbc:h2:tcp://db/mem:shop", timeouts);

        assertThat(config.getDataSourceProperties()).isEmpty();
    }
}
