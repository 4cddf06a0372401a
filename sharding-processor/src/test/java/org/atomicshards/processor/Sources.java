package org.atomicshards.processor;

import static com.google.testing.compile.Compiler.javac;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import javax.tools.JavaFileObject;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;

/** Test sources in package {@code com.acme} and compilations with the processor. */
final class Sources {

    static final String IMPORTS = """
            package com.acme;

            import java.util.*;
            import jakarta.persistence.*;
            import org.atomicshards.annotations.*;

            """;

    private Sources() {
    }

    /** A source file {@code com/acme/<simpleName>.java}; the package and the usual imports are added. */
    static JavaFileObject source(String simpleName, String body) {
        return JavaFileObjects.forSourceString("com.acme." + simpleName, IMPORTS + body);
    }

    /** Root {@code Customer}, keyed by its id, with its orders. */
    static JavaFileObject customer() {
        return source("Customer", """
                @Entity @AtomicUnit
                public class Customer {
                    @Id @ShardKey Long id;
                    @OneToMany(mappedBy = "customer") List<Order> orders;
                }
                """);
    }

    /** Member {@code Order}, carrying the key through its association to the root. */
    static JavaFileObject order() {
        return source("Order", """
                @Entity @Table(name = "orders")
                public class Order {
                    @Id UUID id;
                    @ManyToOne @JoinColumn(name = "customer_id", updatable = false) @ShardKey Customer customer;
                }
                """);
    }

    static Compilation compile(JavaFileObject... sources) {
        return javac().withProcessors(new AtomicShardsProcessor()).compile(sources);
    }

    /** Compiles with the test class path plus {@code extra} (output directories of earlier compilations). */
    static Compilation compileWithClasspath(List<File> extra, JavaFileObject... sources) {
        List<File> classpath = new ArrayList<>(extra);
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            classpath.add(new File(entry));
        }
        return javac().withProcessors(new AtomicShardsProcessor()).withClasspath(classpath).compile(sources);
    }
}
