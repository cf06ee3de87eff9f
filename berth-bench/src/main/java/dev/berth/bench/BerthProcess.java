package dev.berth.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code berth ... --json} command run as its own process, as a user runs it: what it printed on
 * stdout (parsed) and its wall time from start to exit, the JVM's start included. A non-zero exit is
 * an error naming the command.
 */
record BerthProcess(JsonNode out, double seconds) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The command that runs {@code berth ARGS...}: {@code java -jar BERTH ARGS...} for a jar, else
     * {@code BERTH ARGS...} (the launcher, as a user runs it: its JVM options and class-data sharing;
     * benchmarks.sh passes the repository's {@code berth} with {@code BERTH_JAR} naming a copy).
     */
    static List<String> command(Path berth, String... args) {
        List<String> cmd = new ArrayList<>();
        if (berth.getFileName().toString().endsWith(".jar")) {
            cmd.addAll(List.of("java", "-jar"));
        }
        cmd.add(berth.toString());
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** What a process printed on stdout, and its wall time from start to exit. */
    record Output(String text, double seconds) {
    }

    /**
     * Runs {@code cmd} with stdout to a temporary file (stderr discarded, so JVM notes never mix in):
     * the one way the harnesses run berth. A non-zero exit is an error that quotes the stdout.
     */
    static Output output(List<String> cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile("berth-bench", ".out");
        try {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            int exit = p.waitFor();
            double seconds = (System.nanoTime() - t0) / 1e9;
            String text = Files.readString(out);
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " exited " + exit + ": " + text);
            }
            return new Output(text, seconds);
        } finally {
            Files.delete(out);
        }
    }

    /** Runs {@code cmd}, whose stdout is JSON ({@code --json}). */
    static BerthProcess run(List<String> cmd) throws IOException, InterruptedException {
        Output o = output(cmd);
        return new BerthProcess(JSON.readTree(o.text()), o.seconds());
    }
}
