package org.atomicshards.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.assertj.core.api.Assertions.assertThat;
import static org.atomicshards.processor.Sources.customer;
import static org.atomicshards.processor.Sources.order;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.function.UnaryOperator;

import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Filer;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Types;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

import com.google.testing.compile.Compilation;
import org.atomicshards.model.RoutingMetadata;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The processor never crashes javac: an unexpected exception (a bug of ours, or of a collaborator javac hands us)
 * becomes exactly one {@code SHARD-900} error, on the element being processed when there is one. The failures are
 * injected by running the real processor with javac's own environment wrapped so one collaborator throws.
 */
class InternalErrorTest {

    private static final String CAUSE = "simulated collaborator failure";

    @Nested
    class DescribingAnEntity {

        @Test
        void isOneErrorOnTheEntityNamingItAndTheCause() {
            JavaFileObject order = order();
            Compilation compilation = compileWith(environment -> replacing(environment, "getTypeUtils",
                    throwing(Types.class, environment.getTypeUtils(), "asElement",
                            args -> String.valueOf(args[0]).equals("java.util.UUID"))), customer(), order);

            assertOneInternalError(compilation);
            assertThat(compilation).hadErrorContaining("[SHARD-900] Atomic Shards could not check com.acme.Order")
                    .inFile(order).onLineContaining("class Order");
            assertThat(compilation).hadErrorContaining(CAUSE);
        }
    }

    @Nested
    class WritingTheRoutingMetadata {

        @Test
        void isOneErrorNamingTheResourceAndTheCause() {
            Compilation compilation = compileWith(environment -> replacing(environment, "getFiler",
                    throwing(Filer.class, environment.getFiler(), "createResource", args -> true)), customer(), order());

            assertOneInternalError(compilation);
            assertThat(compilation).hadErrorContaining("[SHARD-900] Atomic Shards could not check writing " + RoutingMetadata.RESOURCE);
            assertThat(compilation).hadErrorContaining(CAUSE);
        }
    }

    @Nested
    class CollectingTheAnnotatedElements {

        @Test
        void isOneErrorOnTheCompilationNamingTheCause() {
            Compilation compilation = javac().withProcessors(new WrappingProcessor(UnaryOperator.identity(),
                    round -> throwing(RoundEnvironment.class, round, "getElementsAnnotatedWith", args -> true)))
                    .compile(customer(), order());

            assertOneInternalError(compilation);
            assertThat(compilation).hadErrorContaining("[SHARD-900] Atomic Shards could not check the entity model");
            assertThat(compilation).hadErrorContaining(CAUSE);
        }
    }

    private static void assertOneInternalError(Compilation compilation) {
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation.errors()).allMatch(error -> error.getMessage(null).startsWith("[SHARD-900]"));
        assertThat(compilation.diagnostics()).noneMatch(diagnostic -> diagnostic.getMessage(null).contains("threw an uncaught exception"));
    }

    private static Compilation compileWith(UnaryOperator<ProcessingEnvironment> environment, JavaFileObject... sources) {
        return javac().withProcessors(new WrappingProcessor(environment, UnaryOperator.identity())).compile(sources);
    }

    /** Runs the real processor with javac's environment and rounds passed through the given wrappers. */
    static final class WrappingProcessor extends AbstractProcessor {

        private final AtomicShardsProcessor delegate = new AtomicShardsProcessor();
        private final UnaryOperator<ProcessingEnvironment> environment;
        private final UnaryOperator<RoundEnvironment> rounds;

        WrappingProcessor(UnaryOperator<ProcessingEnvironment> environment, UnaryOperator<RoundEnvironment> rounds) {
            this.environment = environment;
            this.rounds = rounds;
        }

        @Override
        public synchronized void init(ProcessingEnvironment processingEnvironment) {
            super.init(processingEnvironment);
            delegate.init(environment.apply(processingEnvironment));
        }

        @Override
        public Set<String> getSupportedAnnotationTypes() {
            return delegate.getSupportedAnnotationTypes();
        }

        @Override
        public SourceVersion getSupportedSourceVersion() {
            return delegate.getSupportedSourceVersion();
        }

        @Override
        public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
            return delegate.process(annotations, rounds.apply(round));
        }
    }

    /** {@code environment}, except that its no-argument method {@code method} returns {@code replacement}. */
    private static ProcessingEnvironment replacing(ProcessingEnvironment environment, String method, Object replacement) {
        return proxy(ProcessingEnvironment.class, environment, (invoked, args) -> invoked.getName().equals(method)
                ? replacement : invoke(invoked, environment, args));
    }

    /** {@code target}, except that {@code method} throws when {@code when} accepts its arguments. */
    private static <T> T throwing(Class<T> type, T target, String method, java.util.function.Predicate<Object[]> when) {
        return proxy(type, target, (invoked, args) -> {
            if (invoked.getName().equals(method) && when.test(args)) {
                throw new IllegalStateException(CAUSE);
            }
            return invoke(invoked, target, args);
        });
    }

    private interface Handler {
        Object handle(Method method, Object[] args);
    }

    private static <T> T proxy(Class<T> type, T target, Handler handler) {
        return type.cast(Proxy.newProxyInstance(InternalErrorTest.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> handler.handle(method, args)));
    }

    private static Object invoke(Method method, Object target, Object[] args) {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
