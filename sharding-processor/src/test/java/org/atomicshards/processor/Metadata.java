package org.atomicshards.processor;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;

import com.google.testing.compile.Compilation;
import org.atomicshards.model.RoutingMetadata;
import org.atomicshards.model.UnitModel;

/** Reads the routing metadata a compilation wrote. */
final class Metadata {

    private Metadata() {
    }

    static Optional<UnitModel> of(Compilation compilation) {
        Optional<JavaFileObject> file = compilation.generatedFile(StandardLocation.CLASS_OUTPUT, RoutingMetadata.RESOURCE);
        return file.map(Metadata::read);
    }

    private static UnitModel read(JavaFileObject file) {
        try (Reader reader = new InputStreamReader(file.openInputStream(), StandardCharsets.UTF_8)) {
            return RoutingMetadata.read(reader, file.getName());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
