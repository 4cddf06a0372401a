package org.atomicshards.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/** What the results ran on: processors, CPU model, JVM, OS, and the load average (other work skews the figures). */
final class Machine {

    private Machine() {
    }

    static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    static String jdk() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
    }

    static String os() {
        return System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    /** The 1, 5 and 15 minute load averages, e.g. {@code "0.52 0.40 0.31"}, or "unknown" off Linux. */
    static String loadAverage() {
        return firstLine(Path.of("/proc/loadavg")).map(line -> {
            String[] fields = line.split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        }).orElse("unknown");
    }

    static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown CPU");
        } catch (IOException e) {
            return "unknown CPU";
        }
    }

    private static Optional<String> firstLine(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
