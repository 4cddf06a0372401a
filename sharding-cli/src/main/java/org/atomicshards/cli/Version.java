package org.atomicshards.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest (or "development" when run from classes). */
final class Version implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {"atomicshards " + (version == null ? "development build" : version)};
    }
}
