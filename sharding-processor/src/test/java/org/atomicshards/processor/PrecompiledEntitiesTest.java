package org.atomicshards.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.assertj.core.api.Assertions.assertThat;
import static org.atomicshards.processor.Sources.compileWithClasspath;
import static org.atomicshards.processor.Sources.customer;
import static org.atomicshards.processor.Sources.source;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.tools.JavaFileObject;

import com.google.testing.compile.Compilation;
import org.atomicshards.model.UnitMember;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entities that come already compiled (from a jar or an earlier compilation) are checked too. */
class PrecompiledEntitiesTest {

    @TempDir
    Path library;

    /** Compiles {@code sources} without any processor, as a library built elsewhere, into {@link #library}. */
    private List<File> precompile(JavaFileObject... sources) throws IOException {
        Compilation compilation = javac().withOptions("-proc:none").compile(sources);
        assertThat(compilation).succeeded();
        for (JavaFileObject file : compilation.generatedFiles()) {
            if (file.getKind() == JavaFileObject.Kind.CLASS) {
                String path = file.toUri().getPath();
                Path target = library.resolve(path.substring(path.indexOf("CLASS_OUTPUT/") + "CLASS_OUTPUT/".length()));
                Files.createDirectories(target.getParent());
                try (InputStream in = file.openInputStream()) {
                    Files.copy(in, target);
                }
            }
        }
        return List.of(library.toFile());
    }

    @Test
    void aPrecompiledMemberWithoutKeyIsReportedOnTheSourceAssociationThatPulledItIn() throws IOException {
        List<File> classpath = precompile(source("Order", """
                @Entity
                public class Order {
                    @Id UUID id;
                    @ManyToOne Customer customer;
                }
                """), customer());
        JavaFileObject customer = customer();

        Compilation compilation = compileWithClasspath(classpath, customer);

        assertThat(compilation).hadErrorCount(2);
        assertThat(compilation).hadErrorContaining("[com.acme.Order] [SHARD-004] com.acme.Order belongs to atomic unit com.acme.Customer")
                .inFile(customer).onLineContaining("List<Order> orders;");
        assertThat(compilation).hadErrorContaining("[SHARD-005] Association com.acme.Customer.orders pulls com.acme.Order")
                .inFile(customer).onLineContaining("@OneToMany(mappedBy = \"customer\")");
    }

    @Test
    void aCorrectPrecompiledMemberJoinsTheUnit() throws IOException {
        List<File> classpath = precompile(Sources.order(), customer());

        Compilation compilation = compileWithClasspath(classpath, customer());

        assertThat(compilation).succeededWithoutWarnings();
        assertThat(Metadata.of(compilation).orElseThrow().unitOf("com.acme.Order").orElseThrow().member("com.acme.Order"))
                .contains(new UnitMember("com.acme.Order", "customer.id", "customer_id"));
    }

    @Test
    void aKeyInheritedFromAPrecompiledMappedSuperclassIsReportedOnTheSourceEntityNamingTheClass() throws IOException {
        List<File> classpath = precompile(source("CustomerOwned", """
                @MappedSuperclass
                public abstract class CustomerOwned {
                    @ShardKey Long customerId;
                }
                """));
        JavaFileObject invoice = source("Invoice", """
                @Entity
                public class Invoice extends CustomerOwned {
                    @Id UUID id;
                }
                """);

        Compilation compilation = compileWithClasspath(classpath, customer(), Sources.order(), invoice);

        assertThat(compilation).succeeded();
        assertThat(compilation).hadWarningCount(1);
        assertThat(compilation).hadWarningContaining("[com.acme.CustomerOwned.customerId] [SHARD-016] Shard key "
                + "com.acme.Invoice.customerId is mapped as updatable").inFile(invoice).onLineContaining("public class Invoice");
    }
}
