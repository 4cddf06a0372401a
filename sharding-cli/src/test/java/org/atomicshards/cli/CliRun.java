package org.atomicshards.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import picocli.CommandLine;

/** One run of the tool through picocli's {@code CommandLine.execute}, with its output captured. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(Map<String, String> environment, String... args) {
        CommandLine commandLine = Main.commandLine(environment);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int exitCode = commandLine.execute(args);
        return new CliRun(exitCode, out.toString(), err.toString());
    }

    JsonNode json() {
        try {
            return new ObjectMapper().readTree(out);
        } catch (Exception e) {
            throw new AssertionError("Not JSON: " + out + err, e);
        }
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
    }
}
