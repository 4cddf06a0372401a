package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.samples.model.Country;
import org.atomicshards.samples.model.Photo;
import org.atomicshards.samples.model.Status;
import org.atomicshards.samples.model.User;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code index build} and {@code index verify} on the samples' shards plus a model of one unit (keyed by a String, so
 * that the samples' plain Long keys stay unambiguous) with a unique index (compiled by the test, given with
 * {@code --model}): rows written while the index entries were lost are reported
 * missing (exit code 1), a build writes their entries, and the verification then passes; unknown entities and
 * attributes are usage errors naming the fix.
 */
class IndexCommandTest {

    private static final String PERSON = """
            package com.acme.idx;

            import jakarta.persistence.*;
            import org.atomicshards.annotations.*;

            @Entity @AtomicUnit
            public class Person {
                @Id @ShardKey String id;
                @ShardIndex(unique = true) String email;
                String name;
                protected Person() { }
                public Person(String id, String email) { this.id = id; this.email = email; this.name = "p" + id; }
            }
            """;

    @TempDir
    Path directory;

    @Test
    void verifyFindsTheRowsMissingFromTheIndexAndABuildWritesThem() throws Exception {
        SampleShards sample = SampleShards.create(directory, false, 5);
        Path model = compileModel(directory.resolve("model"));
        CliRun update = sample.run("schema update", "--model", model.toString());
        assertThat(update.exitCode()).as(update.toString()).isZero();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {model.toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> person = loader.loadClass("com.acme.idx.Person");
            writePeople(sample, loader, person, 12);
        }
        wipeIndexEntries(sample);

        CliRun missing = sample.run("index verify Person email", "--model", model.toString(), "--json");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(missing.json().get("missing").asLong()).isEqualTo(12);
        assertThat(missing.json().get("rows").asLong()).isEqualTo(12);

        CliRun built = sample.run("index build com.acme.idx.Person email", "--model", model.toString());
        assertThat(built.exitCode()).as(built.toString()).isZero();
        assertThat(built.out()).isEqualTo("index build com.acme.idx.Person.email: 12 rows, 12 entries, 0 missing, "
                + "0 stale, 0 conflicts, 0 cleaned\n");

        CliRun verified = sample.run("index verify Person email --clean", "--model", model.toString(), "--json");
        assertThat(verified.exitCode()).as(verified.toString()).isZero();
        assertThat(verified.json().get("consistent").asBoolean()).isTrue();
        assertThat(verified.json().get("entries").asLong()).isEqualTo(12);
    }

    @Test
    void anUnknownEntityOrAnAttributeWithoutIndexIsAUsageError() throws Exception {
        SampleShards sample = SampleShards.create(directory, false, 2);
        Path model = compileModel(directory.resolve("model"));

        CliRun noEntity = sample.run("index build Nobody email", "--model", model.toString());
        CliRun noIndex = sample.run("index verify Person name", "--model", model.toString());

        assertThat(noEntity.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noEntity.err()).contains("No entity class named Nobody").contains("com.acme.idx.Person");
        assertThat(noIndex.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noIndex.err()).contains("com.acme.idx.Person.name has no @ShardIndex")
                .contains("com.acme.idx.Person.email");
    }

    /** Compiles {@link #PERSON} into {@code output} with its routing metadata (as the processor would write it). */
    private static Path compileModel(Path output) throws IOException {
        Path sources = output.resolveSibling("model-src");
        Path source = sources.resolve("com/acme/idx/Person.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, PERSON, StandardCharsets.UTF_8);
        Files.createDirectories(output);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean compiled = compiler.getTask(diagnostics, null, null,
                List.of("-proc:none", "-d", output.toString(), "-classpath", System.getProperty("java.class.path")),
                null, compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8)
                        .getJavaFileObjects(source.toFile())).call();
        assertThat(compiled).as(diagnostics.toString()).isTrue();
        Path metadata = output.resolve("META-INF/atomic-shards/units.properties");
        Files.createDirectories(metadata.getParent());
        Files.writeString(metadata, """
                format=1
                units=com.acme.idx.Person
                unit.com.acme.idx.Person.key-type=java.lang.String
                unit.com.acme.idx.Person.members=com.acme.idx.Person
                member.com.acme.idx.Person.key-path=id
                member.com.acme.idx.Person.key-column=id
                """, StandardCharsets.UTF_8);
        return output;
    }

    /** Writes {@code count} people through a factory, so each lands on the shard owning its key. */
    private static void writePeople(SampleShards sample, ClassLoader loader, Class<?> person, int count)
            throws ReflectiveOperationException {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                .annotatedClasses(User.class, Status.class, Photo.class, Country.class, person).schemaAction("none");
        sample.settings.forEach(builder::property);
        try (ShardedSessionFactory shards = builder.build()) {
            for (long id = 1; id <= count; id++) {
                shards.persist(person.getConstructor(String.class, String.class)
                        .newInstance("person-" + id, "p" + id + "@example.com"));
            }
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Deletes every index entry, as if the rows had been written before the index existed. */
    private static void wipeIndexEntries(SampleShards sample) throws Exception {
        for (int i = 0; i < 4; i++) {
            try (Connection connection = DriverManager.getConnection(sample.settings.get("atomicshards.shard.s" + i + ".url"),
                    "app", sample.password);
                 Statement statement = connection.createStatement()) {
                statement.executeUpdate("delete from atomicshards_index_unique");
            }
        }
    }
}
