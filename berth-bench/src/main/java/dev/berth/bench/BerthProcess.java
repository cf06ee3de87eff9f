package dev.berth.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One {@code berth ... --json} command run as its own process, as a user runs it: what it printed on
 * stdout (parsed) and its wall time from start to exit, the JVM's start included. A non-zero exit is
 * an error naming the command.
 */
record BerthProcess(JsonNode out, double seconds) {
    private static final ObjectMapper JSON = new ObjectMapper();

    static BerthProcess run(List<String> cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile("berth-bench", ".json");
        try {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            int exit = p.waitFor();
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " exited " + exit);
            }
            return new BerthProcess(JSON.readTree(out.toFile()), seconds);
        } finally {
            Files.delete(out);
        }
    }
}
