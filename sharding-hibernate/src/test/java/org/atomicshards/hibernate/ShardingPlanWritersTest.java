package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FlywayPlanWriter} and {@link LiquibasePlanWriter} on their own: numbering after the highest version found
 * (nested directories, dotted versions), a script configuration file for a step outside a transaction, MariaDB
 * procedures between DELIMITER lines, nothing overwritten, bad paths refused naming the fix.
 */
class ShardingPlanWritersTest {

    private static final ShardingPlan PLAN = new ShardingPlan(ShardId.of("s0"), ShardingPlan.Dialect.MARIADB, List.of(
            new ShardingPlan.Step("add_shard_key_columns", List.of("adds"), List.of("ALTER TABLE `t` ADD COLUMN `k` "
                    + "BIGINT NULL"), true, false),
            new ShardingPlan.Step("fill_shard_keys", List.of("fills"), List.of("CREATE PROCEDURE `p`()\nBEGIN\n"
                    + "    COMMIT;\nEND", "CALL `p`()"), false, false),
            new ShardingPlan.Step("drop_database_generated_ids", List.of("drops"), List.of("ALTER TABLE `t` MODIFY "
                    + "`id` BIGINT NOT NULL"), true, true)));

    @TempDir
    Path dir;

    @Test
    void flywayFilesAreNumberedAfterTheHighestVersion() throws Exception {
        Files.createDirectories(dir.resolve("nested"));
        Files.writeString(dir.resolve("V2__a.sql"), "");
        Files.writeString(dir.resolve("nested/V10_1__b.sql"), "");
        Files.writeString(dir.resolve("R__view.sql"), "");
        Files.writeString(dir.resolve("V99__notes.txt"), "");

        List<Path> files = FlywayPlanWriter.write(PLAN, dir);

        assertThat(files).extracting(file -> file.getFileName().toString()).containsExactly(
                "V11__add_shard_key_columns.sql", "V12__fill_shard_keys.sql", "V12__fill_shard_keys.sql.conf",
                "V13__drop_database_generated_ids.sql");
        assertThat(Files.readString(dir.resolve("V12__fill_shard_keys.sql.conf")))
                .isEqualTo("executeInTransaction=false\n");
        assertThat(Files.readString(dir.resolve("V12__fill_shard_keys.sql")))
                .contains("DELIMITER //\nCREATE PROCEDURE `p`()", "END\n//\nDELIMITER ;\n", "CALL `p`();");
        assertThat(Files.readString(dir.resolve("V13__drop_database_generated_ids.sql")))
                .contains("-- drops", "APPLY AT THE RESTART");
    }

    @Test
    void nothingIsOverwrittenAndBadPathsAreRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("V0__x.sql.conf"), "");
        Files.writeString(dir.resolve("V1__add_shard_key_columns.sql"), "");
        assertThat(FlywayPlanWriter.write(PLAN, dir)).hasSize(4); // after V1: V2..V4
        assertThatThrownBy(() -> LiquibasePlanWriter.write(PLAN, dir.resolve("plan.sql")))
                .hasMessageContaining(".yaml, .yml or .xml");
        assertThatThrownBy(() -> FlywayPlanWriter.write(PLAN, file)).hasMessageContaining("is a file");
        LiquibasePlanWriter.write(PLAN, dir.resolve("plan.xml"));
        assertThatThrownBy(() -> LiquibasePlanWriter.write(PLAN, dir.resolve("plan.xml")))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("plan.xml");
        assertThat(Files.readString(dir.resolve("plan.xml"))).contains("dbms=\"mariadb\"",
                "runInTransaction=\"false\"", "splitStatements=\"false\"", "APPLY AT THE RESTART");
    }
}
