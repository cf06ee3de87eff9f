package dev.berth.io.onnx;

import dev.berth.arith.Checked;
import dev.berth.workload.Workload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An ONNX model turned into a workload, with what the import found out: every tensor's type,
 * shape, size and lifetime, the steps, the If nodes it folded and the views that share their
 * input's buffer.
 *
 * @param workload        the buffers to plan: activations in {@code activationSpace}, weights in
 *                        {@code constantSpace}
 * @param tensors         every tensor (inputs, activations, weights, If outputs) in step order
 * @param steps           the executed nodes in order, one step each (If nodes are replaced by their branch)
 * @param outputs         the graph's outputs, as the flat names of the tensors they are (an If
 *                        output is named as itself; its record says which tensor it is)
 * @param foldedIfs       one line per If folded
 * @param viewsShared     view outputs that share their input's buffer instead of getting one
 * @param opset           the default-domain opset the model imports
 * @param accesses        per activation buffer (graph inputs included), the import's estimate of its
 *                        accesses: one write, one read per node input reading it, one more for a
 *                        graph output
 */
public record ImportedModel(String name, Workload workload, String activationSpace, String constantSpace,
                           List<TensorRecord> tensors, List<StepInfo> steps, List<String> outputs, List<String> foldedIfs,
                           List<String> viewsShared, int opset, Map<String, Long> accesses) {

    /**
     * One executed node.
     *
     * @param inputs  the flat names of the tensors it reads, in the node's input order ("" for an
     *                omitted optional input); an If output is named as itself
     * @param outputs the flat names of the tensors it writes ("" for an unused output slot)
     */
    public record StepInfo(int index, String node, String op, List<String> inputs, List<String> outputs) {
        public StepInfo {
            inputs = List.copyOf(inputs);
            outputs = List.copyOf(outputs);
        }
    }

    public ImportedModel {
        tensors = List.copyOf(tensors);
        steps = List.copyOf(steps);
        outputs = List.copyOf(outputs);
        foldedIfs = List.copyOf(foldedIfs);
        viewsShared = List.copyOf(viewsShared);
        accesses = Collections.unmodifiableMap(new LinkedHashMap<>(accesses));
    }

    /** Graph inputs and node outputs (not weights, not If outputs). */
    public List<TensorRecord> activations() {
        return tensors.stream().filter(TensorRecord::activation).toList();
    }

    /** Weights referenced by the steps or the graph outputs. */
    public List<TensorRecord> weights() {
        return tensors.stream().filter(t -> t.kind() == TensorRecord.Kind.WEIGHT).toList();
    }

    /** The naive total: every activation (graph inputs included) in its own buffer, no reuse, no alignment. */
    public long naiveTotal() {
        long s = 0;
        for (TensorRecord t : activations()) {
            s = Checked.add(s, t.bytes());
        }
        return s;
    }

    public long weightBytes() {
        long s = 0;
        for (TensorRecord t : weights()) {
            s = Checked.add(s, t.bytes());
        }
        return s;
    }

    /**
     * The most activation bytes live at one step when every tensor has its own buffer (no view
     * sharing, no alignment): the figure the shared reference files call max-live.
     */
    public long unsharedPeakLive() {
        int steps = Math.max(1, this.steps.size());
        long[] starting = new long[steps];
        long[] ending = new long[steps + 1];
        for (TensorRecord t : activations()) {
            starting[t.live().first()] = Checked.add(starting[t.live().first()], t.bytes());
            ending[t.live().last() + 1] = Checked.add(ending[t.live().last() + 1], t.bytes());
        }
        long live = 0;
        long peak = 0;
        for (int s = 0; s < steps; s++) {
            live = Checked.add(live, starting[s]) - ending[s];
            peak = Math.max(peak, live);
        }
        return peak;
    }
}
