package dev.berth.bench;

import dev.berth.io.TargetJson;
import dev.berth.io.onnx.OnnxImport;
import dev.berth.io.onnx.OnnxSchedule;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.io.tflite.TfliteSchedule;
import dev.berth.schedule.Graph;
import dev.berth.schedule.InPlace;
import dev.berth.schedule.Order;
import dev.berth.schedule.OrderSearch;
import dev.berth.schedule.Schedule;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The test models as operator graphs (issue 28): each ONNX model imported on npu-ref at the
 * README's input shapes, each TFLite model on tflm, turned into a {@code schedule.Graph} by the
 * importers' adapters, then searched four ways: the file's order without reuse (today's peak live),
 * the file's order with elementwise in-place pairs, the best order without reuse, and both. Per
 * model: operators, the four peaks of activation bytes (reserved, aligned), the bound, whether the
 * last is proved optimal over every order and every choice of pairs (else the bracket), the
 * search's nodes and segments, and the wall time of the last search (in this process, warm or not:
 * a figure, not a goal). Usage: {@code java -cp benchmarks.jar dev.berth.bench.ModelSchedules MODELS_DIR}.
 */
public final class ModelSchedules {
    private ModelSchedules() {
    }

    /** The test models, and silero's 8 kHz branch at one 512-sample frame (the A/B script's case). */
    private static List<TestModels.Model> models() {
        List<TestModels.Model> all = new ArrayList<>(TestModels.ALL);
        int silero = all.indexOf(new TestModels.Model("silero_vad_legacy.onnx", List.of("input=1x1536", "sr=16000")));
        all.add(silero + 1, new TestModels.Model("silero_vad_legacy.onnx", List.of("input=1x512", "sr=1")));
        return all;
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: ModelSchedules MODELS_DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        System.out.printf("%-36s %-36s %4s %11s %11s %11s %11s %11s %-8s %8s %4s %7s%n", "model", "inputs", "ops",
                "file", "in-place", "best order", "both", "bound", "proof", "nodes", "segs", "s");
        for (TestModels.Model m : models()) {
            String[] inputs = m.inputs().toArray(String[]::new);
            Path file = dir.resolve(m.file());
            Graph g = m.tflite()
                    ? TfliteSchedule.graph(TfliteImport.read(file, TargetJson.load("tflm"),
                            TfliteImport.Options.of(inputs).withReplacePlan(true)))
                    : OnnxSchedule.graph(OnnxImport.read(file, TargetJson.load("npu-ref"), OnnxImport.Options.of(inputs)));
            Schedule fileOrder = OrderSearch.search(g, Order.FILE, InPlace.NONE);
            Schedule inPlace = OrderSearch.search(g, Order.FILE, InPlace.ELEMENTWISE);
            Schedule order = OrderSearch.search(g, Order.BEST, InPlace.NONE);
            long t0 = System.nanoTime();
            Schedule both = OrderSearch.search(g, Order.BEST, InPlace.ELEMENTWISE);
            double seconds = (System.nanoTime() - t0) / 1e9;
            String name = Path.of(m.file()).getFileName().toString();
            System.out.printf("%-36s %-36s %4d %,11d %,11d %,11d %,11d %,11d %-8s %,8d %4d %7.3f%n", name,
                    m.inputs().isEmpty() ? "-" : String.join(" ", m.inputs()), g.operators().size(), fileOrder.peak(),
                    inPlace.peak(), order.peak(), both.peak(), both.bound(), both.proved() ? "optimal" : "open",
                    both.nodes(), both.segments(), seconds);
        }
    }
}
