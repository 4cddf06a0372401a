package org.atomicshards.benchmarks.unitofwork;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The unit-of-work comparison for a machine whose CPUs differ and drift: two JVMs, one per side, both pinned to the
 * same CPU ({@code taskset}), take turns. Only one runs at a time, for one slice; the other waits blocked on its
 * input. Two adjacent slices meet the same CPU in nearly the same state, so each pair of slices gives a ratio that the
 * machine's drift hardly touches; the order within a pair alternates (A then B, B then A), the first third of the
 * pairs is dropped as warm-up, and the result is the median of the pairs' ratios with its quartiles. Unlike
 * {@link PairedUnitOfWork}, the two sides never run on different CPUs; unlike {@link InterleavedUnitOfWork}, neither
 * side's compiled code is shaped by the other's.
 *
 * <p>Arguments: slice milliseconds, pairs, side A, side B, and optionally the CPU (default 0); for example
 * {@code 1000 120 atomic-shards plain}. Sides: {@link PairedUnitOfWork.Side}'s names. Needs Linux's {@code taskset}.
 */
public final class AlternatingUnitOfWork {

    private AlternatingUnitOfWork() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("--child")) {
            runChild(PairedUnitOfWork.Side.named(args[1]));
            return;
        }
        if (args.length != 4 && args.length != 5) {
            throw new IllegalArgumentException("Arguments: slice milliseconds, pairs, side A, side B[, CPU]");
        }
        long sliceMillis = Long.parseLong(args[0]);
        int pairs = Integer.parseInt(args[1]);
        PairedUnitOfWork.Side a = PairedUnitOfWork.Side.named(args[2]);
        PairedUnitOfWork.Side b = PairedUnitOfWork.Side.named(args[3]);
        int cpu = args.length == 5 ? Integer.parseInt(args[4]) : 0;
        try (Child childA = Child.start(a, cpu); Child childB = Child.start(b, cpu)) {
            List<Double> ratios = new ArrayList<>();
            for (int pair = 0; pair < pairs; pair++) {
                double rateA;
                double rateB;
                if (pair % 2 == 0) {
                    rateA = childA.slice(sliceMillis);
                    rateB = childB.slice(sliceMillis);
                } else {
                    rateB = childB.slice(sliceMillis);
                    rateA = childA.slice(sliceMillis);
                }
                System.err.printf(Locale.ROOT, "pair %d: %.0f / %.0f units of work per second%n", pair + 1, rateA,
                        rateB);
                if (pair >= pairs / 3) {
                    ratios.add(rateA / rateB);
                }
            }
            Collections.sort(ratios);
            System.out.printf(Locale.ROOT,
                    "%s / %s on CPU %d: median of %d slice pairs %.3f (quartiles %.3f to %.3f)%n", a.name, b.name,
                    cpu, ratios.size(), quantile(ratios, 0.5), quantile(ratios, 0.25), quantile(ratios, 0.75));
        }
    }

    /** The {@code q} quantile of {@code sorted}, interpolated between its two nearest values. */
    static double quantile(List<Double> sorted, double q) {
        if (sorted.isEmpty()) {
            throw new IllegalStateException("No measured pairs; run more pairs");
        }
        double position = q * (sorted.size() - 1);
        int below = (int) Math.floor(position);
        int above = (int) Math.ceil(position);
        return sorted.get(below) + (sorted.get(above) - sorted.get(below)) * (position - below);
    }

    /**
     * A side's JVM: told "run N" on its input, it runs units of work for N ms and answers "@@units count nanoseconds"
     * ("@@ready" once booted).
     */
    private static final class Child implements AutoCloseable {
        private final PairedUnitOfWork.Side side;
        private final Process process;
        private final PrintStream commands;
        private final BufferedReader answers;

        private Child(PairedUnitOfWork.Side side, Process process) {
            this.side = side;
            this.process = process;
            this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
            this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        static Child start(PairedUnitOfWork.Side side, int cpu) throws IOException {
            Process process = PinnedJvm.start(cpu, AlternatingUnitOfWork.class, "--child", side.name);
            Child child = new Child(side, process);
            child.expect("ready");
            return child;
        }

        /** Runs one slice; returns the side's units of work per second in it. */
        double slice(long millis) throws IOException {
            commands.println("run " + millis);
            String[] fields = expect("units").split(" ");
            return Long.parseLong(fields[1]) * 1e9 / Long.parseLong(fields[2]);
        }

        /** The next answer (a line starting with {@code @@}; any other output of the side is skipped). */
        private String expect(String prefix) throws IOException {
            String line = answers.readLine();
            while (line != null && !line.startsWith("@@")) {
                line = answers.readLine();
            }
            if (line == null || !line.startsWith("@@" + prefix)) {
                throw new IllegalStateException("The " + side.name + " side failed (it answered '" + line + "')");
            }
            return line;
        }

        @Override
        public void close() throws InterruptedException {
            commands.println("stop");
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private static void runChild(PairedUnitOfWork.Side side) throws IOException {
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream answers = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.UTF_8);
        try (UnitOfWorkSide running = side.create.get()) {
            OrderRequests requests = new OrderRequests(UnitOfWorkSide.CUSTOMERS);
            answers.println("@@ready");
            for (String command = commands.readLine(); command != null && command.startsWith("run ");
                 command = commands.readLine()) {
                long nanos = Long.parseLong(command.substring(4)) * 1_000_000;
                long start = System.nanoTime();
                long units = 0;
                long elapsed;
                do {
                    running.placeOrder(requests.next());
                    units++;
                    elapsed = System.nanoTime() - start;
                } while (elapsed < nanos);
                answers.println("@@units " + units + " " + elapsed);
            }
        }
    }
}
