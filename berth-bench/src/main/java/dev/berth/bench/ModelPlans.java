package dev.berth.bench;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The shared ONNX models planned as a user plans them, {@code berth plan MODEL --input ... --json}
 * with default options, each as its own process (wall time includes the JVM's start; median of
 * five runs). Prints per model the activations' height (global's high-water mark less the
 * generation overhead above it), the lower bound, what the plan says it proved, and the height
 * TensorFlow Lite Micro's greedy planner gives the same buffer list (figures measured with TFLM's
 * planner when the minimisation work was specified; they are inputs here, not computed).
 * Usage: {@code java -cp benchmarks.jar dev.berth.bench.ModelPlans BERTH MODELS_DIR} (BERTH: berth.jar, or the {@code berth} launcher).
 */
public final class ModelPlans {
    private ModelPlans() {
    }

    private record Model(String file, List<String> inputs, long tflmGreedy) {
    }

    private static final List<Model> MODELS = List.of(
            new Model("ch_PP-OCRv4_det_infer.onnx", List.of("x=1x3x640x640"), 39_321_600),
            new Model("ch_ppocr_mobile_v2.0_cls_infer.onnx", List.of("x=1x3x48x192"), 509_952),
            new Model("silero_vad_legacy.onnx", List.of("input=1x1536", "sr=16000"), 75_328),
            new Model("hello_deepa.onnx", List.of(), 9_728));

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: ModelPlans BERTH_JAR MODELS_DIR");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        Path dir = Path.of(args[1]);
        System.out.printf("%-36s %12s %12s %12s %-22s %12s %8s%n", "model", "activations", "lower bound",
                "global h-w", "proof", "TFLM greedy", "wall (s)");
        for (Model m : MODELS) {
            double[] wall = new double[5];
            JsonNode global = null;
            for (int r = 0; r < wall.length; r++) {
                List<String> cmd = BerthProcess.command(jar, "plan",
                        dir.resolve(m.file()).toString(), "--json");
                for (String in : m.inputs()) {
                    cmd.add("--input");
                    cmd.add(in);
                }
                BerthProcess run = BerthProcess.run(cmd);
                wall[r] = run.seconds();
                JsonNode g = run.out().get("spaces").get("global");
                if (global != null && !global.equals(g)) {
                    throw new IllegalStateException(m.file() + ": two runs gave different plans");
                }
                global = g;
            }
            Arrays.sort(wall);
            long high = global.get("highWater").asLong();
            long overhead = global.get("generationOverhead").asLong();
            System.out.printf("%-36s %,12d %,12d %,12d %-22s %,12d %8.2f%n", m.file(), high - overhead,
                    global.get("lowerBound").asLong() - overhead, high, global.get("proof").asText(),
                    m.tflmGreedy(), wall[wall.length / 2]);
        }
    }
}
