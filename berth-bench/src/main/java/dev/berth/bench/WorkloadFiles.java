package dev.berth.bench;

import dev.berth.solve.SpaceProblem;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Writes a seeded synthetic workload ({@link SyntheticWorkloads#onnxLike(int, long, int)}) as a
 * Berth workload file (contract §5), for timing {@code berth plan FILE} as a user runs it: buffers
 * {@code t0..t(n-1)} in space {@code global} of the bundled {@code npu-ref} target, sizes in bytes.
 * The same arguments give the same bytes.
 *
 * <p>Run: {@code java -cp berth-bench/target/benchmarks.jar dev.berth.bench.WorkloadFiles BUFFERS OUT.json
 * [SEED [PER_STEP]]} (seed 7 and 3 buffers starting per step by default).
 */
public final class WorkloadFiles {
    /** The seed of the benchmarks' workloads. */
    public static final long SEED = 7;
    /** Buffers produced at each step: about what ONNX models of many small operators give. */
    public static final int PER_STEP = 3;

    private WorkloadFiles() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 4) {
            System.err.println("usage: WorkloadFiles BUFFERS OUT.json [SEED [PER_STEP]]");
            System.exit(2);
        }
        int n = Integer.parseInt(args[0]);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : SEED;
        int perStep = args.length > 3 ? Integer.parseInt(args[3]) : PER_STEP;
        write(Path.of(args[1]), n, seed, perStep);
    }

    /** Writes the workload of {@code n} buffers to {@code file}, named after its size and seed. */
    public static void write(Path file, int n, long seed, int perStep) throws IOException {
        SpaceProblem p = SyntheticWorkloads.onnxLike(n, seed, perStep);
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            write(w, p, "synthetic-" + n + "-seed" + seed);
        }
    }

    /**
     * A workload for tiling at scale: {@code n} buffers of 64 bytes in {@code sram}, buffer i live at
     * steps [i, i+1], and one of 1 MiB in {@code global} live over all of them, tiled through
     * {@code sram} with 2 tile buffers: the tiling phase loads every {@code sram} placement before it
     * places the tiles.
     */
    public static void writeTiled(Path file, int n) throws IOException {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            w.write("{\n  \"workload\": \"tiled-" + n + "\",\n  \"buffers\": [\n");
            w.write("    {\"name\": \"big\", \"size\": 1048576, \"space\": \"global\", \"live\": [0, " + n
                    + "], \"tile\": {\"through\": \"sram\", \"buffers\": 2}}");
            for (int i = 0; i < n; i++) {
                w.write(",\n    {\"name\": \"s" + i + "\", \"size\": 64, \"space\": \"sram\", \"live\": [" + i + ", "
                        + (i + 1) + "]}");
            }
            w.write("\n  ]\n}\n");
        }
    }

    /**
     * The workload of {@link #write} with every buffer a candidate for the local {@code sram} before
     * {@code global} (contract §5.2), 1 to 8 accesses (seeded): Berth chooses each buffer's space.
     */
    public static void writeCandidates(Path file, int n) throws IOException {
        SpaceProblem p = SyntheticWorkloads.onnxLike(n, SEED, PER_STEP);
        Random accesses = new Random(SEED);
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            w.write("{\n  \"workload\": \"candidates-" + n + "-seed" + SEED + "\",\n  \"buffers\": [");
            for (int i = 0; i < p.size(); i++) {
                w.write(i == 0 ? "\n" : ",\n");
                w.write("    {\"name\": \"t" + i + "\", \"size\": " + p.reserved(i)
                        + ", \"space\": [\"sram\", \"global\"], \"accesses\": " + (1 + accesses.nextInt(8))
                        + ", \"live\": [" + p.first(i) + ", " + p.last(i) + "]}");
            }
            w.write("\n  ]\n}\n");
        }
    }

    static void write(Writer w, SpaceProblem p, String name) throws IOException {
        w.write("{\n  \"workload\": \"" + name + "\",\n  \"buffers\": [");
        for (int i = 0; i < p.size(); i++) {
            w.write(i == 0 ? "\n" : ",\n");
            w.write("    {\"name\": \"t" + i + "\", \"size\": " + p.reserved(i) + ", \"space\": \"global\", \"live\": ["
                    + p.first(i) + ", " + p.last(i) + "]}");
        }
        w.write("\n  ]\n}\n");
    }
}
