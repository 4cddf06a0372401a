package org.atomicshards.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The commit a run measures, as {@code git} reports it: the checked-out commit, and whether the work tree differs
 * from it outside {@code docs/} (the results the run writes there do not make the measured code differ).
 *
 * @param hash  {@code git rev-parse HEAD}
 * @param dirty whether {@code git status --porcelain} lists a change, tracked or not, outside {@code docs/}
 */
record GitCommit(String hash, boolean dirty) {

    /** The commit of the work tree holding {@code directory}; empty when git or a work tree is missing. */
    static Optional<GitCommit> of(Path directory) {
        Optional<String> top = git(directory, "rev-parse", "--show-toplevel");
        Optional<String> hash = git(directory, "rev-parse", "HEAD");
        if (top.isEmpty() || hash.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> changes = git(Path.of(top.get().strip()), "status", "--porcelain", "--", ".",
                ":(exclude)docs");
        return Optional.of(new GitCommit(hash.get().strip(), changes.map(text -> !text.isBlank()).orElse(true)));
    }

    /** The command's standard output, or empty if it could not run or failed. */
    private static Optional<String> git(Path directory, String... arguments) {
        List<String> command = new ArrayList<>(List.of("git", "-C", directory.toString()));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.empty();
            }
            return process.exitValue() == 0 ? Optional.of(output) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
