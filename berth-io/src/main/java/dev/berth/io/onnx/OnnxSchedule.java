package dev.berth.io.onnx;

import dev.berth.arith.Checked;
import dev.berth.failure.Require;
import dev.berth.schedule.Graph;
import dev.berth.schedule.Reuse;
import dev.berth.schedule.Role;
import dev.berth.workload.BufferSpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An imported ONNX model as a {@link Graph} whose order and in-place choices a search may pick.
 *
 * <p><b>The seam.</b> The graph's buffers are exactly the activation buffers of
 * {@link ImportedModel#workload()} (graph inputs and node outputs, named and sized as there, in the
 * workload's order; a view that joined its input's buffer has no buffer of its own, as in the
 * workload). Weights are left out: they live over every step in the constant space, are never
 * written over, and add the same bytes to every order, so they change no choice. Operator {@code i}
 * of the graph, in its listed order, is the importer's step {@code i} ({@link ImportedModel#steps()}:
 * one per executed node in the importer's topological order, Constant nodes included, each folded
 * If replaced by the nodes of its branch), so the listed order is the workload's order and, with
 * no pair taken, a buffer is live at exactly the operators whose steps its workload lifetime
 * covers. Operators are named after their nodes (a name met again gets {@code " (step i)"}).
 *
 * <p><b>Reads and writes.</b> An operator reads the buffers of its non-weight inputs and writes the
 * buffers of its non-weight outputs; a view that joined its input's buffer reads that buffer and
 * writes nothing (its readers read the joined buffer), so the shared bytes are counted once.
 *
 * <p><b>Roles.</b> A buffer holding a graph output (itself, a view joined to it, or an If output
 * naming it) is {@link Role#OUTPUT}; a graph input is {@link Role#INPUT}; a graph input that is
 * also a graph output is {@link Role#VARIABLE}, the role whose rules are its lifetime (live over
 * every step, written by no operator, never written over); every other buffer is
 * {@link Role#INTERMEDIATE}. Alignment: the activation space's (the importer gives every buffer
 * alignment 1), so reserved bytes are the planner's. No operator has to keep its relative order:
 * the importer refuses what ONNX would need it for (Loop, Scan, operators of other domains).
 *
 * <p><b>Pairs</b> (docs/contract.md §5.4): a view whose input
 * is read later in the file's order (so it has its own buffer) may be written over its input
 * ({@link Reuse#VIEW}) when another order makes it the input's last reader; an operator of
 * {@link #ELEMENTWISE} may write its output over an input of the same element type and the same
 * shape as the output (that input is not broadcast) ({@link Reuse#ELEMENTWISE}); BatchNormalization
 * only with one output (inference). Inputs that are graph outputs or graph inputs read again as
 * outputs are never written over (the graph refuses such pairs).
 */
public final class OnnxSchedule {

    /**
     * The operators whose output may be written over a same-type, same-shape input: each output
     * element is computed from the input elements of the same index (and, for BatchNormalization,
     * PRelu and broadcast operands, from values that are not written), so element i is read before
     * element i is written and nothing reads it afterwards. The reason for each is in
     * docs/contract.md §5.4.
     */
    public static final List<String> ELEMENTWISE = List.of(
            // ONNX Runtime's CPU kernels declare MayInplace(0, 0) for these
            "Relu", "LeakyRelu", "Elu", "Selu", "Sigmoid", "HardSigmoid", "Tanh", "Softplus", "Softsign",
            "ThresholdedRelu", "Clip",
            // one element in, one out, same index: Berth's own reason
            "HardSwish", "Gelu", "Celu", "Mish", "Shrink", "Abs", "Neg", "Exp", "Log", "Sqrt", "Reciprocal", "Floor",
            "Ceil", "Round", "Sign", "Erf", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh",
            "Atanh", "Not",
            // binary and variadic: the overwritten input has the output's shape; the others are only read
            "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Sum", "Mean", "And", "Or", "Xor", "PRelu", "Where",
            // per-channel affine map of each element (inference: one output)
            "BatchNormalization");

    private static final Set<String> ELEMENTWISE_SET = Set.copyOf(ELEMENTWISE);

    private OnnxSchedule() {
    }

    /** The graph of {@code model} (see the class comment for what it holds and how it maps to the workload). */
    public static Graph graph(ImportedModel model) {
        Require.nonNull(model, "model");
        Map<String, TensorRecord> byName = new HashMap<>();
        for (TensorRecord t : model.tensors()) {
            byName.put(t.name(), t);
        }
        // the activation buffers, in the workload's order
        Map<String, BufferSpec> buffers = new LinkedHashMap<>();
        long alignment = 1;
        for (BufferSpec b : model.workload().buffers()) {
            TensorRecord t = byName.get(b.name());
            if (t != null && t.activation()) {
                buffers.put(b.name(), b);
                alignment = Checked.lcm(b.space().alignment(), b.alignment());
            }
        }
        Set<String> outputBuffers = new HashSet<>();
        for (String out : model.outputs()) {
            bufferOf(byName.get(out), buffers).ifPresent(outputBuffers::add);
        }
        List<Graph.Buffer> list = new ArrayList<>();
        for (BufferSpec b : buffers.values()) {
            boolean input = byName.get(b.name()).kind() == TensorRecord.Kind.INPUT;
            boolean output = outputBuffers.contains(b.name());
            Role role = input ? (output ? Role.VARIABLE : Role.INPUT) : (output ? Role.OUTPUT : Role.INTERMEDIATE);
            list.add(new Graph.Buffer(b.name(), b.size(), role));
        }
        Map<String, Role> roleOf = new HashMap<>();
        list.forEach(b -> roleOf.put(b.name(), b.role()));

        List<Graph.Operator> ops = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ImportedModel.StepInfo s : model.steps()) {
            Set<String> reads = new LinkedHashSet<>();
            for (String in : s.inputs()) {
                bufferOf(byName.get(in), buffers).ifPresent(reads::add);
            }
            List<String> writes = new ArrayList<>();
            for (String out : s.outputs()) {
                bufferOf(byName.get(out), buffers).filter(b -> !reads.contains(b) && !writes.contains(b))
                        .ifPresent(writes::add);
            }
            List<Graph.Overwrite> pairs = pairs(s, byName, buffers, roleOf, writes);
            String name = names.add(s.node()) ? s.node() : s.node() + " (step " + s.index() + ")";
            names.add(name);
            ops.add(new Graph.Operator(name, List.copyOf(reads), writes, pairs));
        }
        return new Graph(model.name(), alignment, list, ops, List.of());
    }

    /** The activation buffer holding {@code t}'s bytes, if it is an activation of the workload. */
    private static Optional<String> bufferOf(TensorRecord t, Map<String, BufferSpec> buffers) {
        if (t == null || !buffers.containsKey(t.buffer())) {
            return Optional.empty();
        }
        return Optional.of(t.buffer());
    }

    /** The pairs step {@code s} declares on its own output buffer (written, not joined). */
    private static List<Graph.Overwrite> pairs(ImportedModel.StepInfo s, Map<String, TensorRecord> byName,
                                               Map<String, BufferSpec> buffers, Map<String, Role> roleOf,
                                               List<String> writes) {
        if (writes.isEmpty() || s.outputs().isEmpty() || s.outputs().get(0).isEmpty()) {
            return List.of();
        }
        TensorRecord out = byName.get(s.outputs().get(0));
        boolean view = Ops.VIEWS.contains(s.op());
        boolean elementwise = ELEMENTWISE_SET.contains(s.op())
                && (!s.op().equals("BatchNormalization") || s.outputs().stream().filter(o -> !o.isEmpty()).count() == 1);
        if (out == null || !writes.contains(out.buffer()) || !(view || elementwise)) {
            return List.of();
        }
        List<Graph.Overwrite> pairs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        // a view's data is input 0; an elementwise operator may take any input of the output's type and shape
        List<String> candidates = view ? s.inputs().subList(0, Math.min(1, s.inputs().size())) : s.inputs();
        for (String in : candidates) {
            TensorRecord t = byName.get(in);
            if (t == null || bufferOf(t, buffers).isEmpty()) {
                continue;
            }
            String host = t.buffer();
            Role role = roleOf.get(host);
            boolean reusable = role == Role.INPUT || role == Role.INTERMEDIATE;
            boolean fits = view ? t.bytes() == out.bytes() : t.type() == out.type() && t.shape().equals(out.shape());
            if (reusable && fits && seen.add(host)) {
                pairs.add(new Graph.Overwrite(out.buffer(), host, view ? Reuse.VIEW : Reuse.ELEMENTWISE));
            }
        }
        return pairs;
    }
}
