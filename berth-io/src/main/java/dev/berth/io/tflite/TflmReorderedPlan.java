package dev.berth.io.tflite;

import dev.berth.failure.Require;
import dev.berth.plan.Lowering;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.schedule.Graph;
import dev.berth.schedule.InPlace;
import dev.berth.schedule.Order;
import dev.berth.schedule.OrderSearch;
import dev.berth.schedule.Schedule;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A TFLite model rewritten for TFLM in a chosen operator order with an offline plan that takes the
 * chosen in-place pairs ({@code --tflm-plan} with {@code --order best} or {@code --in-place}).
 *
 * <p>In two rewrites: first the model with subgraph 0's operators in the schedule's order and no
 * offsets of Berth's ({@link TflmOfflinePlan#write(ByteBuffer, String, TfliteModel, int[], int[])};
 * a file plan's kept offsets stay), which is imported again, so that every step, lifetime and
 * scratch buffer is TFLM's for the order it will run; then that model's graph in its own (the
 * chosen) order with the pairs of {@code level} ({@link OrderSearch}: the same pairs, as the state
 * at every step is the same), lowered and planned ({@link Lowering}, {@link Planner}: a shared pair
 * at one offset, validated), its offline plan chosen as for any model ({@link TflmHeadPlan}: the
 * head TFLM ends with once it has placed the scratch buffers) and written into it. TFLM applies
 * the offsets as given: an output written over its input has the input's offset.
 *
 * @see #plan
 */
public final class TflmReorderedPlan {

    /**
     * What {@link #plan} made.
     *
     * @param bytes     the model to write: operators in the chosen order, the offline plan
     * @param reordered the model in the chosen order (imported from the first rewrite, no offsets of Berth's)
     * @param schedule  the schedule of {@code reordered}'s graph in its own order: its pairs, peak and bound
     * @param order     per position of subgraph 0, the index in the input file of the operator there
     * @param head      the offline plan chosen, and the head TFLM will end with
     */
    public record Result(byte[] bytes, ImportedTflite reordered, Schedule schedule, int[] order, TflmHeadPlan.Choice head) {
        public Result {
            bytes = bytes.clone();
            order = order.clone();
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        @Override
        public int[] order() {
            return order.clone();
        }
    }

    private TflmReorderedPlan() {
    }

    /**
     * {@code m} (read from {@code original}, named {@code what}, imported with {@code options}) with
     * subgraph 0's operators in {@code order} (per position, an operator index in the file: for a
     * schedule of {@code TfliteSchedule.graph(m)}, {@link TfliteOperatorOrder#of}; checked by
     * {@link TfliteOperatorOrder}) and the pairs of
     * {@code level}, planned with {@code planner}. Predicted scratch buffers are predicted again for
     * the new order; a scratch buffer {@code options} gives must belong to one operator (first step = last step, TFLM's steps of the file's order; else {@code invalid-input}
     * naming {@code --tflm-scratch}): it moves with it.
     */
    public static Result plan(ByteBuffer original, String what, ImportedTflite m, TfliteImport.Options options,
                              int[] order, InPlace level, Planner.Options planner) {
        Require.nonNull(original, "original");
        Require.nonNull(m, "model");
        Require.nonNull(options, "options");
        Require.nonNull(level, "inPlace");
        Require.nonNull(planner, "planner");
        int[] position = TfliteOperatorOrder.check(m.model(), order);
        int[] kept = m.keptOffsets();
        int[] none = new int[m.model().tensorCount()];
        for (int i = 0; i < none.length; i++) {
            none[i] = kept != null && kept[i] >= 0 ? kept[i] : -1;
        }
        byte[] first = TflmOfflinePlan.write(original, what, m.model(), none, order);
        int shift = m.stepShift();
        List<TflmScratch> moved = new ArrayList<>();
        for (int k = 0; k < options.scratch().size(); k++) {
            TflmScratch s = options.scratch().get(k);
            int op = s.first() - 1;
            if (s.first() != s.last() || op < 0 || op >= order.length || shift != 0) {
                throw Require.invalid("--tflm-scratch", "scratch buffer " + k + " (steps "
                        + s.first() + ".." + s.last() + ") does not belong to one operator of subgraph 0; Berth "
                        + "reorders a model's operators only when each scratch buffer moves with its operator");
            }
            moved.add(new TflmScratch(s.size(), position[op] + 1, position[op] + 1));
        }
        // the placeholder plan of the first rewrite is no file plan to compare with, unless it keeps offsets
        // predicted scratch buffers are predicted again, per operator, in the new order
        ImportedTflite again = TfliteImport.read(ByteBuffer.wrap(first), what, m.target(),
                (options.predictScratch() ? options : options.withScratch(moved))
                        .withReplacePlan(options.replacePlan() || kept == null));
        Graph g = TfliteSchedule.graph(again);
        Schedule s = OrderSearch.search(g, Order.FILE, level);
        PlanResult planned = Planner.plan(again.target(), Lowering.lower(again.workload(), g, s), planner);
        TflmHeadPlan.Choice head = TflmHeadPlan.choose(again, planned, planner);
        byte[] bytes = TflmOfflinePlan.write(ByteBuffer.wrap(first), what, again.model(), head.offline());
        return new Result(bytes, again, s, order, head);
    }
}
