package dev.berth.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.io.TargetJson;
import dev.berth.io.TflmScratchJson;
import dev.berth.io.tflite.ImportedTflite;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.io.tflite.TfliteModel;
import dev.berth.io.tflite.TfliteReader;
import dev.berth.io.tflite.TflmGreedyPlanner;
import dev.berth.io.tflite.TflmScratch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The TFLite test models planned as a user plans them, {@code berth plan MODEL.tflite --json} and,
 * where the kernels' scratch buffers are known, {@code --tflm-scratch FILE}, each run as its own
 * process (wall time includes the JVM's start; median of five runs of the command with scratch
 * buffers, or without where there is no scratch file). Per model: the planned tensors, Berth's
 * tensor head, its lower bound and proof, TFLM's own tensor head by Berth's reimplementation of
 * TFLM's greedy planner ({@link TflmGreedyPlanner}, run here) and as TFLM itself computed it
 * ({@code expected/}); with scratch buffers, the head Berth predicts TFLM ends with under Berth's
 * offline plan, beside TFLM's own head (reimplementation and {@code expected/}), and the head Berth
 * predicts with no scratch file (the requests of TFLM's reference kernels predicted: {@code berth plan
 * MODEL --json}; the tensors' columns are {@code --tflm-kernels other}). A second table: the
 * file {@code --tflm-plan} writes (the same command, into a temporary directory), its bytes against
 * the original's and the bound the contract gives (original + the plan's entry + 16 per buffer).
 * Usage: {@code java -cp benchmarks.jar dev.berth.bench.TflitePlans BERTH TFLITE_DIR SCRATCH_DIR} (BERTH: berth.jar, or the {@code berth} launcher).
 */
public final class TflitePlans {
    private TflitePlans() {
    }

    private static final int RUNS = 5;

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 3) {
            System.err.println("usage: TflitePlans BERTH_JAR TFLITE_DIR SCRATCH_DIR");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        Path dir = Path.of(args[1]);
        Path scratchDir = Path.of(args[2]);
        ObjectMapper json = new ObjectMapper();
        List<String> sizes = new ArrayList<>();
        Path written = Files.createTempDirectory("berth-tflite-plans");
        List<String> models;
        try (var s = Files.list(dir)) {
            models = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tflite")).sorted().toList();
        }
        System.out.printf("%-28s %7s | %9s %9s %-12s %9s %9s | %8s %9s %9s %9s %9s | %8s%n", "", "", "tensors", "",
                "", "TFLM own", "TFLM", "scratch", "Berth", "Berth", "TFLM own", "TFLM", "");
        System.out.printf("%-28s %7s | %9s %9s %-12s %9s %9s | %8s %9s %9s %9s %9s | %8s%n", "model", "planned",
                "Berth", "lower bd", "proof", "(greedy)", "(expect.)", "buffers", "final", "predicted", "(greedy)",
                "(expect.)", "wall (s)");
        for (String file : models) {
            String stem = file.substring(0, file.length() - ".tflite".length());
            JsonNode expected = json.readTree(dir.resolve("expected").resolve(stem + ".json").toFile());
            List<String> inputs = stem.equals("hello_world_int8") ? List.of("serving_default_dense_input:0=1x1") : List.of();
            Path scratchFile = scratchDir.resolve(stem + ".json");
            boolean withScratch = Files.exists(scratchFile);

            // in this process: TFLM's view and TFLM's own plans by the greedy reimplementation
            ImportedTflite m = TfliteImport.read(dir.resolve(file), TargetJson.load("tflm"),
                    TfliteImport.Options.of(inputs.toArray(String[]::new)));
            List<TflmScratch> scratch = withScratch ? TflmScratchJson.read(scratchFile) : List.of();
            long greedyTensors = TflmGreedyPlanner.ofModel(m.view(), null, List.of()).head();
            long greedyAll = TflmGreedyPlanner.ofModel(m.view(), null, scratch).head();
            JsonNode online = expected.has("tflm_allocator_only_ignoring_vela_plan")
                    ? expected.get("tflm_allocator_only_ignoring_vela_plan") : expected.get("tflm_allocator_only");
            JsonNode run = expected.path("tflm_plan");

            // berth plan as a user runs it
            List<String> plain = command(jar, dir.resolve(file), inputs, null);
            List<String> tensors = new ArrayList<>(plain);
            tensors.addAll(List.of("--tflm-kernels", "other"));
            JsonNode tensorsOnly = BerthProcess.run(tensors).out();
            JsonNode predicted = BerthProcess.run(plain).out().get("tflm");
            JsonNode arena = tensorsOnly.get("spaces").get("arena");
            double[] wall = new double[RUNS];
            JsonNode final0 = null;
            List<String> timed = withScratch ? command(jar, dir.resolve(file), inputs, scratchFile) : plain;
            for (int r = 0; r < RUNS; r++) {
                BerthProcess run1 = BerthProcess.run(timed);
                JsonNode out = run1.out();
                wall[r] = run1.seconds();
                if (final0 != null && !final0.equals(out)) {
                    throw new IllegalStateException(file + ": two runs gave different plans");
                }
                final0 = out;
            }
            Arrays.sort(wall);
            String proof = arena.get("proof").asText();
            System.out.printf("%-28s %7d | %9d %9d %-12s %9d %9d | %8s %9s %9s %9s %9s | %8.2f%n", stem, m.plannedCount(),
                    arena.get("highWater").asLong(), arena.get("lowerBound").asLong(),
                    proof.equals("open") ? "open" : "optimal", greedyTensors, online.get("head_bytes").asLong(),
                    withScratch ? Integer.toString(scratch.size()) : "-",
                    withScratch ? Long.toString(final0.get("tflm").get("head").asLong()) : "-",
                    predicted.get("scratchNotPredicted").isEmpty() ? Long.toString(predicted.get("head").asLong())
                            : "not known",
                    withScratch ? Long.toString(greedyAll) : "-",
                    run.isObject() ? Long.toString(run.get("head_bytes").asLong()) : "-", wall[RUNS / 2]);

            // the file --tflm-plan writes
            Path out = written.resolve(file);
            List<String> write = new ArrayList<>(timed);
            write.addAll(List.of("--tflm-plan", out.toString()));
            BerthProcess.run(write);
            long original = Files.size(dir.resolve(file));
            long planned = Files.size(out);
            TfliteModel back = TfliteReader.read(out);
            long bound = original + 4L * (3 + back.tensorCount()) + 4 + 128 + 16 + 16L * back.bufferBytes().length;
            sizes.add(String.format("%-28s %10d %10d %8d %7.2f%% %10d %5s", stem, original, planned, planned - original,
                    100.0 * (planned - original) / original, bound, planned <= bound ? "yes" : "NO"));
            Files.delete(out);
        }
        Files.delete(written);
        System.out.println();
        System.out.printf("%-28s %10s %10s %8s %8s %10s %5s%n", "--tflm-plan file (bytes)", "original", "planned",
                "growth", "", "bound", "<=");
        sizes.forEach(System.out::println);
    }

    private static List<String> command(Path jar, Path model, List<String> inputs, Path scratch) {
        List<String> cmd = BerthProcess.command(jar, "plan", model.toString(), "--json");
        for (String in : inputs) {
            cmd.add("--input");
            cmd.add(in);
        }
        if (scratch != null) {
            cmd.add("--tflm-scratch");
            cmd.add(scratch.toString());
        }
        return cmd;
    }

}
