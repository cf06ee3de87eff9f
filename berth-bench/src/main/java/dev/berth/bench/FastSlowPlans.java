package dev.berth.bench;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Fast and slow memory on the shared models, as a user plans them: for each ONNX model (on
 * {@code npu-ref}, activations in {@code global}) and each TFLite model (on {@code tflm},
 * activations in {@code arena}), a local {@code sram} of 1/8, 1/4 and 1/2 of the activations'
 * peak live, {@code berth plan MODEL --fast-space sram --fast-capacity C --json} as its own
 * process (wall time includes the JVM's start; median of three runs, which must agree). Prints the
 * traffic cost (accesses x bytes x accessCost, the buffers with candidates only: the others pay
 * the same under every policy) of Berth's choice, of TVM USMP's first fit over the candidate list
 * and of ExecuTorch's fastest-bank-first spilling (both reimplemented in the core from their
 * descriptions), the lower bound and the proof, then the averages the goals are about.
 * Usage: {@code java -cp benchmarks.jar dev.berth.bench.FastSlowPlans BERTH MODELS_DIR} (BERTH: berth.jar, or the {@code berth} launcher).
 */
public final class FastSlowPlans {
    private FastSlowPlans() {
    }

    /** npu-ref with its sram in the dma32 format: sram20 addresses 1 MiB, less than a large model's fractions. */
    private static final String WIDE_SRAM_TARGET = """
            { "target": "npu-ref-wide-sram",
              "formats": { "dma32": { "maxAddress": "0xFFFF_FFFF", "end": "exclusive" } },
              "spaces": {
                "global":  { "kind": "logical",  "format": "dma32", "alignment": 64 },
                "sram":    { "kind": "local",    "format": "dma32", "alignment": 32, "capacity": "256KiB" },
                "weights": { "kind": "external", "format": "dma32", "alignment": 64, "base": "0x8000_0000" } },
              "generation": {
                "descriptor":  { "space": "global", "bytes": 32, "alignment": 32, "addressFormat": "dma32" },
                "instruction": { "space": "global", "bytesPerStep": 16, "alignment": 16 } } }
            """;

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: FastSlowPlans BERTH_JAR MODELS_DIR");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        Path dir = Path.of(args[1]);
        Path target = Files.createTempFile("npu-ref-wide-sram", ".json");
        Files.writeString(target, WIDE_SRAM_TARGET);
        try {
            table(jar, dir, target);
        } finally {
            Files.delete(target);
        }
    }

    private static void table(Path jar, Path dir, Path target) throws IOException, InterruptedException {
        System.out.printf("%-40s %5s %9s %12s %12s %12s %12s %8s %8s %-11s %7s%n", "model", "sram", "bytes",
                "berth", "first-fit", "fastest-bank", "lower bound", "vs ff", "vs fbf", "proof", "wall s");
        int rows = 0;
        int worse = 0;
        double sumVsFbf = 0;
        int fbfRows = 0;
        int proved = 0;
        double maxGap = 0;
        double maxWall = 0;
        for (TestModels.Model m : TestModels.ALL) {
            List<String> base = BerthProcess.command(jar, "plan",
                    dir.resolve(m.file()).toString(), "--json");
            for (String in : m.inputs()) {
                base.add("--input");
                base.add(in);
            }
            boolean tflite = m.tflite();
            if (!tflite) {
                base.add("--target");
                base.add(target.toString());
            }
            JsonNode act = BerthProcess.run(base).out().get("spaces").get(tflite ? "arena" : "global");
            long peak = act.get("peakLive").asLong() - act.get("generationOverhead").asLong();
            for (int part : new int[]{8, 4, 2}) {
                long cap = peak / part;
                List<String> cmd = new ArrayList<>(base);
                cmd.addAll(List.of("--fast-space", "sram", "--fast-capacity", Long.toString(cap)));
                double[] wall = new double[3];
                JsonNode a = null;
                for (int r = 0; r < wall.length; r++) {
                    BerthProcess run = BerthProcess.run(cmd);
                    wall[r] = run.seconds();
                    JsonNode x = run.out().get("assignment");
                    if (a != null && !a.equals(x)) {
                        throw new IllegalStateException(m.file() + ": two runs gave different choices");
                    }
                    a = x;
                }
                Arrays.sort(wall);
                long pinned = a.get("pinnedCost").asLong();
                long berth = a.get("cost").asLong() - pinned;
                long lb = a.get("lowerBound").asLong() - pinned;
                JsonNode ffn = a.get("baselines").get("first-fit");
                JsonNode fbn = a.get("baselines").get("fastest-bank-first");
                long ff = ffn.isNull() ? -1 : ffn.asLong() - pinned;
                long fbf = fbn.isNull() ? -1 : fbn.asLong() - pinned;
                rows++;
                if (ff >= 0 && berth > ff || fbf >= 0 && berth > fbf) {
                    worse++;
                }
                if (fbf > 0) {
                    sumVsFbf += 1.0 - (double) berth / fbf;
                    fbfRows++;
                }
                String proof = a.get("proof").asText();
                if (!proof.equals("open")) {
                    proved++;
                }
                if (lb > 0) {
                    maxGap = Math.max(maxGap, (double) (berth - lb) / lb);
                }
                maxWall = Math.max(maxWall, wall[1]);
                System.out.printf(Locale.ROOT, "%-40s %5s %,9d %,12d %12s %12s %,12d %8s %8s %-11s %7.2f%n", m.file(),
                        "1/" + part, cap, berth, ff < 0 ? "no fit" : String.format(Locale.ROOT, "%,d", ff),
                        fbf < 0 ? "no fit" : String.format(Locale.ROOT, "%,d", fbf), lb, less(berth, ff),
                        less(berth, fbf), proof, wall[1]);
            }
        }
        System.out.printf(Locale.ROOT, "%nrows: %d; berth worse than a baseline in %d; berth's cost below "
                        + "fastest-bank-first's by %.1f %% on average (over %d rows where it pays anything); "
                        + "proved optimal in %d; largest gap to the lower bound %.1f %%; slowest median wall %.2f s%n",
                rows, worse, 100 * sumVsFbf / Math.max(1, fbfRows), fbfRows, proved, 100 * maxGap, maxWall);
    }

    /** {@code -12.3 %}: how much less berth's cost is than the baseline's. */
    private static String less(long berth, long baseline) {
        if (baseline < 0) {
            return "-";
        }
        if (baseline == berth) {
            return "=";
        }
        return String.format(Locale.ROOT, "%+.1f%%", 100.0 * (berth - baseline) / baseline);
    }
}
