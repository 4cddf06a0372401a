package org.atomicshards.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.assertj.core.api.Assertions.assertThat;
import static org.atomicshards.processor.Sources.compile;
import static org.atomicshards.processor.Sources.customer;
import static org.atomicshards.processor.Sources.order;
import static org.atomicshards.processor.Sources.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;

import com.google.testing.compile.Compilation;
import org.atomicshards.model.RoutingMetadata;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessorBehaviourTest {

    @Nested
    class WithoutAtomicShards {

        @Test
        void aPlainJpaModelIsLeftAlone() {
            Compilation compilation = compile(source("Setting", """
                    @Entity
                    public class Setting { @Id @GeneratedValue Long id; }
                    """));

            assertThat(compilation).succeededWithoutWarnings();
            assertThat(Metadata.of(compilation)).isEmpty();
        }
    }

    @Nested
    class Robustness {

        @Test
        void anUnresolvedTypeLeavesTheErrorToJavacAndDoesNotCrash() {
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id UUID id;
                        @ManyToOne @JoinColumn(updatable = false) @ShardKey Customer customer;
                        @ManyToOne Missing missing;
                    }
                    """);

            Compilation compilation = compile(customer(), order);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("cannot find symbol").inFile(order).onLineContaining("Missing missing;");
            assertThat(compilation.diagnostics()).noneMatch(diagnostic -> diagnostic.getMessage(null).contains("SHARD-"));
        }

        @Test
        void keepsGoingAfterAnErrorSoEveryErrorIsReportedInOneBuild() {
            JavaFileObject setting = source("Setting", """
                    @Entity
                    public class Setting { @Id String name; }
                    """);
            JavaFileObject log = source("Log", """
                    @Entity
                    public class Log { @Id @GeneratedValue(strategy = GenerationType.IDENTITY) Long id; }
                    """);
            JavaFileObject root = source("Customer", """
                    @Entity @AtomicUnit
                    public class Customer { @Id Long id; }
                    """);

            Compilation compilation = compile(root, setting, log);

            assertThat(compilation).hadErrorCount(3);
            assertThat(compilation).hadErrorContaining("[SHARD-001]").inFile(root).onLineContaining("@AtomicUnit");
            assertThat(compilation).hadErrorContaining("[SHARD-013] com.acme.Setting").inFile(setting).onLineContaining("class Setting");
            assertThat(compilation).hadErrorContaining("[SHARD-013] com.acme.Log").inFile(log).onLineContaining("class Log");
        }

        @Test
        void writesNoMetadataWhenTheModelHasErrors(@TempDir Path output) {
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            JavaCompiler.CompilationTask task = javac.getTask(null, null, diagnostics,
                    List.of("-d", output.toString(), "-classpath", System.getProperty("java.class.path")), null,
                    List.of(customer(), source("Order", """
                            @Entity
                            public class Order { @Id UUID id; }
                            """)));
            task.setProcessors(List.of(new AtomicShardsProcessor()));

            assertThat(task.call()).isFalse();
            assertThat(diagnostics.getDiagnostics()).extracting(diagnostic -> diagnostic.getMessage(null).substring(0, 11))
                    .containsExactlyInAnyOrder("[SHARD-004]", "[SHARD-005]");
            assertThat(output.resolve(RoutingMetadata.RESOURCE)).doesNotExist();
        }
    }

    @Nested
    class Rounds {

        /** Generates the {@code Order} entity in the first round, as code generators do. */
        static final class GeneratingProcessor extends AbstractProcessor {
            private boolean generated;

            @Override
            public Set<String> getSupportedAnnotationTypes() {
                return Set.of("*");
            }

            @Override
            public SourceVersion getSupportedSourceVersion() {
                return SourceVersion.latestSupported();
            }

            @Override
            public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
                if (!generated) {
                    generated = true;
                    try (Writer writer = processingEnv.getFiler().createSourceFile("com.acme.Order").openWriter()) {
                        writer.write(Sources.IMPORTS + """
                                @Entity
                                public class Order {
                                    @Id UUID id;
                                    @ManyToOne Customer customer;
                                }
                                """);
                    } catch (IOException e) {
                        processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, e.toString());
                        throw new UncheckedIOException(e);
                    }
                }
                return false;
            }
        }

        @Test
        void entitiesGeneratedInALaterRoundAreChecked() {
            JavaFileObject customer = customer();

            Compilation compilation = javac().withProcessors(new GeneratingProcessor(), new AtomicShardsProcessor()).compile(customer);

            assertThat(compilation).hadErrorCount(2);
            assertThat(compilation).hadErrorContaining("[SHARD-004] com.acme.Order belongs to atomic unit com.acme.Customer");
            assertThat(compilation).hadErrorContaining("[SHARD-005] Association com.acme.Customer.orders pulls com.acme.Order")
                    .inFile(customer).onLineContaining("List<Order> orders;");
        }

        @Test
        void aCleanModelWritesItsMetadataOnce() {
            Compilation compilation = compile(customer(), order());

            assertThat(compilation).succeededWithoutWarnings();
            assertThat(compilation.generatedFiles()).filteredOn(file -> file.getName().endsWith("units.properties")).hasSize(1);
        }
    }
}
