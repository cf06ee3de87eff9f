package dev.berth.cli;

import dev.berth.bench.WorkloadFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A JVM whose heap is too small for the input: {@code berth plan} says so in one line (category
 * {@code host-memory-exhausted}, exit 7, the heap it had and how to give more), prints no stack
 * trace, and leaves no file behind; with {@code --json} the error object is on stdout. Run as a
 * process with a 24 MiB heap on 200,000 buffers (a plan of them holds far more).
 */
class HostMemoryTest {
    @TempDir
    Path dir;

    private Process start(Path workload, Path artifact, boolean json) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx24m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "plan", workload.toString(), "-o", artifact.toString()));
        if (json) {
            cmd.add("--json");
        }
        return new ProcessBuilder(cmd).redirectError(dir.resolve(json ? "err-json" : "err").toFile())
                .redirectOutput(dir.resolve(json ? "out-json" : "out").toFile()).start();
    }

    @Test
    void theHeapSuggestedIsAlwaysMoreThanTheHeapItHad() {
        long gib = 1L << 30;
        assertThat(Main.suggestedHeapGiB(24L << 20)).isEqualTo(2);
        assertThat(Main.suggestedHeapGiB(910L << 20)).isEqualTo(2); // -Xmx1g under ParallelGC
        assertThat(Main.suggestedHeapGiB(gib)).isEqualTo(2);
        assertThat(Main.suggestedHeapGiB(1820L << 20)).isEqualTo(4); // -Xmx2g
        assertThat(Main.suggestedHeapGiB(3641L << 20)).isEqualTo(8); // -Xmx4g
        for (long max : new long[] {1, gib - 1, gib + 1, 5 * gib + 7, 64 * gib}) {
            assertThat(Main.suggestedHeapGiB(max) * gib).as("%d", max).isGreaterThan(max);
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void outOfHeapIsOneTypedLineAndNoFile() throws Exception {
        Path workload = dir.resolve("big.json");
        WorkloadFiles.write(workload, 200_000, WorkloadFiles.SEED, WorkloadFiles.PER_STEP);
        Path artifact = dir.resolve("plan.json");

        Process p = start(workload, artifact, false);
        assertThat(p.waitFor()).isEqualTo(Main.HOST_MEMORY_EXHAUSTED);
        String err = Files.readString(dir.resolve("err"), StandardCharsets.UTF_8);
        assertThat(err).startsWith("berth: host-memory-exhausted: the planner ran out of host memory: its Java heap of ")
                .contains("MiB is too small").contains("BERTH_JAVA_OPTS=-Xmx2g ")
                .doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(Files.readString(dir.resolve("out"), StandardCharsets.UTF_8)).isEmpty();

        Process q = start(workload, artifact, true);
        assertThat(q.waitFor()).isEqualTo(Main.HOST_MEMORY_EXHAUSTED);
        assertThat(Files.readString(dir.resolve("out-json"), StandardCharsets.UTF_8))
                .startsWith("{").containsPattern("\"category\"\\s*:\\s*\"host-memory-exhausted\"")
                .containsPattern("\"heapBytes\"\\s*:\\s*[0-9]+");
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder("big.json", "err", "out", "err-json", "out-json");
        }
    }
}
