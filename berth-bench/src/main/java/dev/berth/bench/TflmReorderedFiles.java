package dev.berth.bench;

import dev.berth.io.TargetJson;
import dev.berth.io.TflmScratchJson;
import dev.berth.io.tflite.ImportedTflite;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.io.tflite.TfliteModel;
import dev.berth.io.tflite.TfliteOperatorOrder;
import dev.berth.io.tflite.TfliteSchedule;
import dev.berth.io.tflite.TflmReorderedPlan;
import dev.berth.plan.Planner;
import dev.berth.schedule.InPlace;
import dev.berth.schedule.Order;
import dev.berth.schedule.OrderSearch;
import dev.berth.schedule.Schedule;
import dev.berth.solve.SolverChoice;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a TFLite model for TFLM in another operator order with an in-place offline plan (issue 28,
 * item 4), for runs in the real TFLM: {@code MODEL OUT [--scratch JSON] [--order best|late]
 * [--in-place none|views|elementwise]}. {@code best} is the order {@link OrderSearch} chooses;
 * {@code late} the valid order that runs, at each point, the ready operator listed last, each source
 * (an operator that waits for none: a DEQUANTIZE of weights) right before its first reader (another
 * order of the same graph, to run a file whose order differs from its own). Prints the order's
 * moved positions, the pairs, the peaks and the head TFLM is predicted to end with.
 */
public final class TflmReorderedFiles {
    private TflmReorderedFiles() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: TflmReorderedFiles MODEL OUT [--scratch JSON] [--order best|late] "
                    + "[--in-place none|views|elementwise]");
            System.exit(2);
        }
        Path model = Path.of(args[0]);
        Path out = Path.of(args[1]);
        TfliteImport.Options options = TfliteImport.Options.of();
        String order = "best";
        InPlace level = InPlace.ELEMENTWISE;
        for (int i = 2; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--scratch" -> options = options.withScratch(TflmScratchJson.read(Path.of(args[i + 1])));
                case "--order" -> order = args[i + 1];
                case "--in-place" -> {
                    String id = args[i + 1];
                    level = Arrays.stream(InPlace.values()).filter(l -> l.id().equals(id)).findFirst().orElseThrow();
                }
                default -> throw new IllegalArgumentException(args[i]);
            }
        }
        byte[] original = Files.readAllBytes(model);
        String what = model.getFileName().toString();
        ImportedTflite m = TfliteImport.read(ByteBuffer.wrap(original), what, TargetJson.load("tflm"), options);
        Schedule best = OrderSearch.search(TfliteSchedule.graph(m), Order.BEST, level);
        int[] ops = order.equals("late") ? late(m.model()) : TfliteOperatorOrder.of(m, best);
        TflmReorderedPlan.Result r = TflmReorderedPlan.plan(ByteBuffer.wrap(original), what, m, options, ops, level,
                new Planner.Options(SolverChoice.AUTO, 10));
        Files.write(out, r.bytes());
        int moved = 0;
        for (int i = 0; i < ops.length; i++) {
            moved += ops[i] != i ? 1 : 0;
        }
        Schedule s = r.schedule();
        System.out.println("model " + what + " order " + order + " in-place " + level.id() + ": " + ops.length
                + " operators, " + moved + " at another position");
        System.out.println("order " + Arrays.toString(ops));
        System.out.println("pairs " + s.pairs().size() + " " + s.pairs());
        System.out.println("peak file-order no-reuse " + best.filePeak() + ", chosen " + s.peak() + ", bound of best "
                + best.bound() + " (search's best " + best.peak() + ")");
        Map<String, Integer> index = new HashMap<>();
        r.reordered().view().entries().forEach(e -> index.put(e.label(), index.size()));
        int[] offline = r.head().offline();
        long together = s.pairs().stream().filter(p -> offline[index.get(p.output())] >= 0
                && offline[index.get(p.output())] == offline[index.get(p.input())]).count();
        System.out.println("pairs at one offset in the written plan: " + together + " of " + s.pairs().size());
        System.out.println("offline plan from " + r.head().chosen() + ", predicted head " + r.head().predictedHead()
                + ", TFLM's own head of the reordered model " + r.head().tflmHead());
        for (var c : r.head().candidates()) {
            System.out.println("  candidate " + c.source() + ": predicted head " + c.predictedHead() + ", tensors "
                    + c.tensorHead() + (c.valid() ? "" : ", its layout not valid"));
        }
        System.out.println("wrote " + out + " (" + r.bytes().length + " bytes)");
    }

    /** The valid order that runs, at each point, the ready operator listed last, sources right before their first reader. */
    static int[] late(TfliteModel model) {
        TfliteModel.Subgraph g = model.subgraphs().get(0);
        int n = g.operators().size();
        List<Set<Integer>> pre = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            Set<Integer> p = new HashSet<>();
            TfliteModel.Operator b = g.operators().get(j);
            for (int i = 0; i < j; i++) {
                TfliteModel.Operator a = g.operators().get(i);
                if (conflict(a, b) || conflict(b, a)) {
                    p.add(i);
                }
            }
            pre.add(p);
        }
        // sources (nothing before them: a DEQUANTIZE of weights) run right before their first reader
        boolean[] source = new boolean[n];
        for (int j = 0; j < n; j++) {
            source[j] = pre.get(j).isEmpty() && g.operators().get(j).inputs().length > 0
                    && Arrays.stream(g.operators().get(j).inputs()).allMatch(t -> t < 0 || g.tensors().get(t).buffer() > 0);
        }
        int[] order = new int[n];
        boolean[] done = new boolean[n];
        int k = 0;
        while (k < n) {
            int pick = -1;
            for (int j = n - 1; j >= 0 && pick < 0; j--) {
                if (!done[j] && !source[j] && pre.get(j).stream().allMatch(i -> done[i] || source[i])) {
                    pick = j;
                }
            }
            for (int j = 0; pick < 0 && j < n; j++) {
                pick = done[j] ? -1 : j; // only sources nobody reads are left
            }
            for (int i : pre.get(pick).stream().sorted().toList()) {
                if (!done[i]) {
                    done[i] = true;
                    order[k++] = i;
                }
            }
            done[pick] = true;
            order[k++] = pick;
        }
        return order;
    }

    /** {@code a} writes a tensor {@code b} reads or writes. */
    private static boolean conflict(TfliteModel.Operator a, TfliteModel.Operator b) {
        Set<Integer> w = new HashSet<>();
        Arrays.stream(a.outputs()).forEach(w::add);
        Arrays.stream(a.intermediates()).forEach(w::add);
        w.remove(-1);
        for (int[] list : new int[][] {b.inputs(), b.outputs(), b.intermediates()}) {
            for (int t : list) {
                if (w.contains(t)) {
                    return true;
                }
            }
        }
        return false;
    }
}
