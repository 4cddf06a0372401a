package org.atomicshards.cli.internal;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.model.InvalidRoutingMetadataException;
import org.atomicshards.model.RoutingMetadata;
import org.atomicshards.model.Unit;
import org.atomicshards.model.UnitMember;
import org.atomicshards.model.UnitModel;

/**
 * The application's entity classes, found through the routing metadata that the annotation processor writes into
 * the entities' jar ({@value RoutingMetadata#RESOURCE}): every member of every atomic unit and every reference-data
 * entity. The classes come from the jars and directories given with {@code --model} (and their dependencies given
 * the same way), or from the tool's own class path when none is given.
 */
public final class EntityModel implements AutoCloseable {

    private final ClassLoader loader;
    private final URLClassLoader ownLoader;
    private final List<Class<?>> classes;

    private EntityModel(ClassLoader loader, URLClassLoader ownLoader, List<Class<?>> classes) {
        this.loader = loader;
        this.ownLoader = ownLoader;
        this.classes = List.copyOf(classes);
    }

    /**
     * @param paths jars or class directories (may be empty: the tool's class path)
     * @throws CliException (exit code {@link ExitCodes#CONFIGURATION}) if a path does not exist, no routing
     *                      metadata is found, or a class it names cannot be loaded
     */
    public static EntityModel load(List<Path> paths) {
        URLClassLoader own = null;
        ClassLoader loader = EntityModel.class.getClassLoader();
        if (!paths.isEmpty()) {
            List<URL> urls = new ArrayList<>();
            for (Path path : paths) {
                if (!Files.exists(path)) {
                    throw new CliException(ExitCodes.CONFIGURATION, "Model path " + path.toAbsolutePath()
                            + " (option --model) does not exist. Fix: pass the jar or classes directory of your entities");
                }
                try {
                    urls.add(path.toUri().toURL());
                } catch (MalformedURLException e) {
                    throw new CliException(ExitCodes.CONFIGURATION, "Model path " + path + " (option --model) is not usable: " + e.getMessage(), e);
                }
            }
            own = new URLClassLoader("atomicshards-model", urls.toArray(URL[]::new), loader);
            loader = own;
        }
        try {
            UnitModel model;
            try {
                model = RoutingMetadata.readAll(loader);
            } catch (InvalidRoutingMetadataException e) {
                throw new CliException(ExitCodes.CONFIGURATION, e.getMessage(), e);
            }
            if (model.units().isEmpty() && model.referenceData().isEmpty()) {
                throw new CliException(ExitCodes.CONFIGURATION, "No entity model: no " + RoutingMetadata.RESOURCE
                        + " in " + (paths.isEmpty() ? "the class path" : paths) + ". Fix: pass --model with the jar or "
                        + "classes directory of your entities, compiled with sharding-processor (it writes that file)");
            }
            Set<String> names = new LinkedHashSet<>();
            for (Unit unit : model.units()) {
                unit.members().stream().map(UnitMember::entity).forEach(names::add);
            }
            names.addAll(model.referenceData());
            List<Class<?>> classes = new ArrayList<>();
            for (String name : names) {
                try {
                    classes.add(Class.forName(name, false, loader));
                } catch (ClassNotFoundException | LinkageError e) {
                    throw new CliException(ExitCodes.CONFIGURATION, "Entity class " + name + ", named by "
                            + RoutingMetadata.RESOURCE + ", cannot be loaded (" + e + "). Fix: add the jars it needs "
                            + "to --model (separate several with ',')", e);
                }
            }
            return new EntityModel(loader, own, classes);
        } catch (RuntimeException e) {
            closeQuietly(own);
            throw e;
        }
    }

    /** The loader of the entity classes (the thread's context class loader while a command runs). */
    public ClassLoader classLoader() {
        return loader;
    }

    /** Every entity class of the model: unit members, roots included, then reference data. */
    public List<Class<?>> classes() {
        return classes;
    }

    @Override
    public void close() {
        closeQuietly(ownLoader);
    }

    private static void closeQuietly(URLClassLoader loader) {
        if (loader != null) {
            try {
                loader.close();
            } catch (IOException e) {
                // nothing is left open that matters once the command has finished
            }
        }
    }
}
