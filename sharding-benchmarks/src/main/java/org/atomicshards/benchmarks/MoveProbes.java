package org.atomicshards.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import org.atomicshards.benchmarks.move.MoveFigure;
import org.atomicshards.benchmarks.move.MoveProbe;
import org.atomicshards.benchmarks.report.Measurement;

/**
 * The group {@value #GROUP}: runs the {@link MoveProbe} in a fresh JVM (same JDK and class path, the PostgreSQL
 * server settings of this JVM) and reads back its figures. It needs a PostgreSQL server, so it runs only when the
 * suite's {@code --only} pattern names it, never under the catch-all {@code .*}.
 */
final class MoveProbes {

    static final String GROUP = "pg-move";

    private final Path logDirectory;

    MoveProbes(Path logDirectory) {
        this.logDirectory = logDirectory;
    }

    /** Whether a run with this {@code --only} pattern runs the group (as {@link SuiteGroup#selectedBy}). */
    static boolean selectedBy(Pattern only) {
        return only.matcher(GROUP).matches() && !only.pattern().equals(SuiteGroup.ALL);
    }

    /** @param failures receives one line per figure the probe did not produce */
    List<Measurement> run(List<String> failures) throws IOException, InterruptedException {
        Path log = logDirectory.resolve("move-probe.log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xms1g", "-Xmx1g", SuiteGroup.QUIET_SLF4J));
        for (String property : System.getProperties().stringPropertyNames()) {
            if (property.startsWith("benchmarks.pg.")) {
                command.add("-D" + property + "=" + System.getProperty(property));
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), MoveProbe.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        process.waitFor();
        return parse(Files.readAllLines(log, StandardCharsets.UTF_8), failures, log);
    }

    /** The figures in the probe's output; a figure missing from it adds a line to {@code failures}. */
    static List<Measurement> parse(List<String> output, List<String> failures, Path log) {
        List<Measurement> measurements = new ArrayList<>();
        for (MoveFigure figure : MoveFigure.values()) {
            Optional<double[]> value = result(output, figure);
            if (value.isPresent()) {
                measurements.add(new Measurement(figure.key(), value.get()[0], value.get()[1], figure.unit()));
            } else {
                failures.add(figure.key() + ": the move probe gave no result, see " + log);
            }
        }
        return measurements;
    }

    private static Optional<double[]> result(List<String> output, MoveFigure figure) {
        String prefix = MoveProbe.RESULT_PREFIX + figure.name() + "=";
        return output.stream()
                .filter(line -> line.startsWith(prefix))
                .map(line -> line.substring(prefix.length()).trim().split(" "))
                .map(fields -> new double[] {Double.parseDouble(fields[0]), Double.parseDouble(fields[1])})
                .findFirst();
    }
}
