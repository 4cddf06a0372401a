package org.atomicshards.cli;

import java.lang.reflect.Constructor;
import java.util.Map;

import picocli.CommandLine;

/** Creates commands and hands the environment to those that take it (a constructor with one {@code Map} parameter). */
final class CliFactory implements CommandLine.IFactory {

    private final Map<String, String> environment;

    CliFactory(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public <K> K create(Class<K> type) throws Exception {
        try {
            Constructor<K> constructor = type.getDeclaredConstructor(Map.class);
            constructor.setAccessible(true); // the subcommands of a command may be package-private nested classes
            return constructor.newInstance(environment);
        } catch (NoSuchMethodException e) {
            return CommandLine.defaultFactory().create(type);
        }
    }
}
