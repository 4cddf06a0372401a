package org.atomicshards.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/** What the results ran on: processors, CPU model, JVM, and the load average (other work skews the figures). */
final class Machine {

    private Machine() {
    }

    static String describe() {
        return Runtime.getRuntime().availableProcessors() + " processors, " + cpuModel() + ", "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + ", "
                + System.getProperty("os.name") + " " + System.getProperty("os.version")
                + "; load average before the run: " + loadAverage();
    }

    static String loadAverage() {
        return firstLine(Path.of("/proc/loadavg")).map(line -> {
            String[] fields = line.split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2] + " (1, 5, 15 min)";
        }).orElse("unknown");
    }

    private static String cpuModel() {
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
