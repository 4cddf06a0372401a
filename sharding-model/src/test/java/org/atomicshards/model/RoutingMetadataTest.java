package org.atomicshards.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RoutingMetadataTest {

    private static final UnitModel MODEL = UnitModel.of(List.of(
                    new Unit("com.acme.Customer", "java.lang.Long", List.of(
                            new UnitMember("com.acme.Customer", "id", "id"),
                            new UnitMember("com.acme.Order", "customer.id", "customer_id"),
                            new UnitMember("com.acme.Outer$AuditEntry", "customerId", null))),
                    new Unit("com.acme.Vendor", "com.acme.VendorKey", List.of(
                            new UnitMember("com.acme.Vendor", "id", null)))),
            List.of("com.acme.Country"));

    static String write(UnitModel model) throws IOException {
        StringWriter out = new StringWriter();
        RoutingMetadata.write(model, out);
        return out.toString();
    }

    @Nested
    class Writing {

        @Test
        void writesTheDocumentedFormat() throws IOException {
            assertThat(write(MODEL)).isEqualTo("""
                    # Atomic Shards routing metadata (format 1, see org.atomicshards.model.RoutingMetadata)
                    format=1
                    units=com.acme.Customer,com.acme.Vendor
                    unit.com.acme.Customer.key-type=java.lang.Long
                    unit.com.acme.Customer.members=com.acme.Customer,com.acme.Order,com.acme.Outer$AuditEntry
                    member.com.acme.Customer.key-path=id
                    member.com.acme.Customer.key-column=id
                    member.com.acme.Order.key-path=customer.id
                    member.com.acme.Order.key-column=customer_id
                    member.com.acme.Outer$AuditEntry.key-path=customerId
                    unit.com.acme.Vendor.key-type=com.acme.VendorKey
                    unit.com.acme.Vendor.members=com.acme.Vendor
                    member.com.acme.Vendor.key-path=id
                    reference-data=com.acme.Country
                    """);
        }

        @Test
        void readsBackWhatItWrote() throws IOException {
            assertThat(RoutingMetadata.read(new StringReader(write(MODEL)), "test")).isEqualTo(MODEL);
        }

        @Test
        void escapesColumnNamesThatPropertiesWouldMisread() throws IOException {
            UnitModel model = UnitModel.of(List.of(new Unit("a.Root", "java.lang.String",
                    List.of(new UnitMember("a.Root", "id", " \"order key\" = #1: straße\\")))), List.of());

            assertThat(RoutingMetadata.read(new StringReader(write(model)), "test")).isEqualTo(model);
        }

        @Test
        void writesAnEmptyModel() throws IOException {
            assertThat(RoutingMetadata.read(new StringReader(write(UnitModel.empty())), "test")).isEqualTo(UnitModel.empty());
        }
    }

    @Nested
    class Reading {

        @Test
        void rejectsAnotherFormatVersion() {
            assertThatThrownBy(() -> RoutingMetadata.read(new StringReader("format=2\nunits=\n"), "jar:x.jar!/units"))
                    .isInstanceOf(InvalidRoutingMetadataException.class)
                    .hasMessageContaining("jar:x.jar!/units has format=2")
                    .hasMessageContaining("reads format=1");
        }

        @Test
        void namesAMissingProperty() {
            String text = "format=1\nunits=a.Root\nunit.a.Root.key-type=java.lang.Long\nunit.a.Root.members=a.Root\n";

            assertThatThrownBy(() -> RoutingMetadata.read(new StringReader(text), "units.properties"))
                    .isInstanceOf(InvalidRoutingMetadataException.class)
                    .hasMessageContaining("units.properties lacks property member.a.Root.key-path");
        }

        @Test
        void rejectsAUnitThatDoesNotListItsRoot() {
            String text = "format=1\nunits=a.Root\nunit.a.Root.key-type=java.lang.Long\nunit.a.Root.members=a.Other\n"
                    + "member.a.Other.key-path=rootId\n";

            assertThatThrownBy(() -> RoutingMetadata.read(new StringReader(text), "units.properties"))
                    .isInstanceOf(InvalidRoutingMetadataException.class)
                    .hasMessageContaining("unit.a.Root.members")
                    .hasMessageContaining("does not list its root");
        }
    }

    @Nested
    class ReadingFromTheClassPath {

        @TempDir
        Path directory;

        private URL resourceRoot(String name, String content) throws IOException {
            Path root = directory.resolve(name);
            Path file = root.resolve(RoutingMetadata.RESOURCE);
            Files.createDirectories(file.getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8);
            return root.toUri().toURL();
        }

        @Test
        void mergesTheMetadataOfEveryJar() throws IOException {
            UnitModel customers = UnitModel.of(List.of(MODEL.unit("com.acme.Customer").orElseThrow()), List.of("com.acme.Country"));
            UnitModel vendors = UnitModel.of(List.of(MODEL.unit("com.acme.Vendor").orElseThrow()), List.of());
            try (URLClassLoader loader = new URLClassLoader(new URL[] {
                    resourceRoot("one", write(customers)), resourceRoot("two", write(vendors))}, null)) {

                assertThat(RoutingMetadata.readAll(loader)).isEqualTo(MODEL);
            }
        }

        @Test
        void rejectsJarsThatDisagree() throws IOException {
            UnitModel other = UnitModel.of(List.of(new Unit("com.acme.Customer", "java.util.UUID",
                    List.of(new UnitMember("com.acme.Customer", "id", "id")))), List.of());
            try (URLClassLoader loader = new URLClassLoader(new URL[] {
                    resourceRoot("one", write(MODEL)), resourceRoot("two", write(other))}, null)) {

                assertThatThrownBy(() -> RoutingMetadata.readAll(loader))
                        .isInstanceOf(InvalidRoutingMetadataException.class)
                        .hasMessageContaining("contradicts another " + RoutingMetadata.RESOURCE)
                        .hasMessageContaining("com.acme.Customer is described differently");
            }
        }

        @Test
        void isEmptyWithoutMetadata() throws IOException {
            try (URLClassLoader loader = new URLClassLoader(new URL[0], null)) {
                assertThat(RoutingMetadata.readAll(loader)).isEqualTo(UnitModel.empty());
            }
        }
    }
}
