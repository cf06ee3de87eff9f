package dev.berth.io.tflite;

import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.schedule.Graph;
import dev.berth.schedule.Reuse;
import dev.berth.schedule.Role;
import dev.berth.workload.BufferSpec;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.TensorType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An imported TFLite model as a {@link Graph} whose order and in-place choices a search may pick.
 *
 * <p><b>The seam.</b> The graph's buffers are exactly the buffers of
 * {@link ImportedTflite#workload()} in the arena space (the tensors TFLM plans, the variable
 * tensors when the target has no persistent space, the scratch buffers), named ({@code t12},
 * {@code scratch0}) and sized as there, in the workload's order. Constant data (flash) and variable
 * tensors in the persistent space are left out: they live over every step outside the arena.
 * Operator {@code j} of the graph, in its listed order, is operator {@code j} of subgraph 0 in the
 * file, named {@code "j:OPNAME"} ({@code 3:CONV_2D}); it runs at the importer's step
 * {@code j + 1 + stepShift} ({@link ImportedTflite#stepShift()}). The steps before the first
 * operator (step 0, TFLM's inputs, and with a shift also TFLM's step -1) run no operator: the
 * graph counts the bytes live there in its first operator (graph inputs are live from it), which
 * holds them too unless a tensor lives at those steps alone (see {@link Role#INPUT}: a graph input
 * nobody reads is live during the first operator only). A tensor TFLM never marks (of an operator
 * nothing reads, or of a subgraph nothing runs) is such an unread input.
 *
 * <p><b>Roles.</b> An input of subgraph 0 is {@link Role#INPUT} ({@link Role#VARIABLE} when it is
 * also an output: live over every step, never written over); a tensor an operator writes is
 * {@link Role#OUTPUT} when it is an output of subgraph 0, else {@link Role#INTERMEDIATE}; a
 * variable tensor in the arena is {@link Role#VARIABLE}; a tensor read but written by no operator
 * is {@link Role#INPUT} (TFLM keeps it from the start), or {@link Role#VARIABLE} if it is also an
 * output. A scratch buffer is written by the operator at its first TFLM step (the first operator
 * for step 0) and read by the operator at its last, so it stays with its operator in any order.
 * Alignment: the arena's (every buffer has alignment 1), so reserved bytes are TFLM's and the
 * planner's.
 *
 * <p><b>Kept order.</b> Operators that read or write a variable tensor, custom operators, and the
 * resource operators (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) keep their relative order (one
 * chain). A model whose subgraph 0 runs control flow (IF, WHILE, CALL_ONCE) is {@code invalid-input}:
 * TFLM's steps then walk other subgraphs inside one operator, which the graph does not describe.
 *
 * <p><b>Pairs</b> (docs/contract.md §5.4): RESHAPE's output over its input ({@link Reuse#VIEW}: TFLM's
 * kernel copies nothing when the two share bytes); {@link Reuse#ELEMENTWISE} for ADD over an input
 * of the output's shape and type (not broadcast), RELU and LOGISTIC over their input, QUANTIZE over
 * an int16 input with an int8 output of the same shape: the kernels a run of the real TFLM showed
 * giving identical outputs in place. Never MEAN (its reduce path zeroes the output first).
 */
public final class TfliteSchedule {

    private TfliteSchedule() {
    }

    /** The graph of {@code model} (see the class comment for what it holds and how it maps to the workload). */
    public static Graph graph(ImportedTflite model) {
        Require.nonNull(model, "model");
        TfliteModel.Subgraph main = model.model().subgraphs().get(0);
        for (TfliteModel.Operator op : main.operators()) {
            if (op.calls().length > 0) {
                throw BerthException.invalid("operators[" + op.index() + "]", op.opName(), model.name() + ": operator "
                        + op.index() + " (" + op.opName() + ") runs other subgraphs; the operator graph of a model "
                        + "with control flow is not built (its order and in-place choices are the file's)");
            }
        }
        Map<String, BufferSpec> arena = new LinkedHashMap<>();
        long alignment = 1;
        for (BufferSpec b : model.workload().buffers()) {
            if (b.space().name().equals(model.arenaSpace())) {
                arena.put(b.name(), b);
                alignment = Checked.lcm(b.space().alignment(), b.alignment());
            }
        }
        Map<String, TflmView.Entry> entry = new HashMap<>();
        for (TflmView.Entry e : model.view().entries()) {
            entry.put(e.label(), e);
        }
        int n = main.operators().size();
        List<Set<String>> reads = new ArrayList<>();
        List<List<String>> writes = new ArrayList<>();
        Map<String, Integer> writer = new HashMap<>();
        for (TfliteModel.Operator op : main.operators()) {
            Set<String> r = new LinkedHashSet<>();
            for (int t : op.inputs()) {
                if (t >= 0 && arena.containsKey("t" + t)) {
                    r.add("t" + t);
                }
            }
            List<String> w = new ArrayList<>();
            for (int t : op.outputs()) {
                String label = "t" + t;
                if (t >= 0 && arena.containsKey(label) && !r.contains(label) && !w.contains(label)
                        && !entry.get(label).variable()) {
                    w.add(label);
                    writer.putIfAbsent(label, op.index());
                }
            }
            reads.add(r);
            writes.add(w);
        }
        List<TflmScratch> scratch = model.scratch();
        for (int k = 0; k < scratch.size() && n > 0; k++) {
            String label = TflmScratch.label(k);
            int first = Math.min(n - 1, Math.max(0, scratch.get(k).first() - 1));
            int last = Math.min(n - 1, Math.max(0, scratch.get(k).last() - 1));
            writes.get(first).add(label);
            writer.put(label, first);
            if (last > first) {
                reads.get(last).add(label);
            }
        }
        Set<String> inputs = labels(main.inputs());
        Set<String> outputs = labels(main.outputs());
        List<Graph.Buffer> buffers = new ArrayList<>();
        Map<String, Role> roleOf = new HashMap<>();
        for (BufferSpec b : arena.values()) {
            TflmView.Entry e = entry.get(b.name());
            boolean variable = e != null && e.variable();
            boolean written = writer.containsKey(b.name()) && !inputs.contains(b.name());
            boolean output = outputs.contains(b.name());
            Role role = variable ? Role.VARIABLE
                    : written ? (output ? Role.OUTPUT : Role.INTERMEDIATE)
                    : output ? Role.VARIABLE : Role.INPUT;
            buffers.add(new Graph.Buffer(b.name(), b.size(), role));
            roleOf.put(b.name(), role);
        }
        List<Graph.Operator> ops = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        for (TfliteModel.Operator op : main.operators()) {
            String name = op.index() + ":" + op.opName();
            List<String> w = writes.get(op.index());
            // a buffer an input of subgraph 0 names is the caller's: no operator writes it
            w.removeIf(inputs::contains);
            ops.add(new Graph.Operator(name, List.copyOf(reads.get(op.index())), w, pairs(op, entry, roleOf, w)));
            if (keepsOrder(op, main)) {
                kept.add(name);
            }
        }
        return new Graph(model.name(), alignment, buffers, ops, kept.size() > 1 ? List.of(kept) : List.of());
    }

    private static Set<String> labels(int[] tensors) {
        Set<String> s = new LinkedHashSet<>();
        for (int t : tensors) {
            if (t >= 0) {
                s.add("t" + t);
            }
        }
        return s;
    }

    /**
     * Custom, resource and control-flow operators, and those touching a variable tensor: they keep
     * their relative order (here and in a reordered file, {@link TfliteOperatorOrder}).
     */
    static boolean keepsOrder(TfliteModel.Operator op, TfliteModel.Subgraph main) {
        int code = op.builtinCode();
        if (op.calls().length > 0 || code == BuiltinOperator.CUSTOM || code == BuiltinOperator.VAR_HANDLE || code == BuiltinOperator.READ_VARIABLE
                || code == BuiltinOperator.ASSIGN_VARIABLE) {
            return true;
        }
        for (int[] list : new int[][] {op.inputs(), op.outputs()}) {
            for (int t : list) {
                if (t >= 0 && t < main.tensors().size() && main.tensors().get(t).variable()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The pairs {@code op} declares on its output 0 (see the class comment). */
    private static List<Graph.Overwrite> pairs(TfliteModel.Operator op, Map<String, TflmView.Entry> entry,
                                               Map<String, Role> roleOf, List<String> writes) {
        if (op.outputs().length == 0 || op.outputs()[0] < 0 || !writes.contains("t" + op.outputs()[0])) {
            return List.of();
        }
        TflmView.Entry out = entry.get("t" + op.outputs()[0]);
        int code = op.builtinCode();
        int inputs = switch (code) {
            case BuiltinOperator.ADD -> 2;
            case BuiltinOperator.RESHAPE, BuiltinOperator.RELU, BuiltinOperator.LOGISTIC, BuiltinOperator.QUANTIZE -> 1;
            default -> 0;
        };
        List<Graph.Overwrite> pairs = new ArrayList<>();
        for (int i = 0; i < Math.min(inputs, op.inputs().length); i++) {
            int t = op.inputs()[i];
            Role role = t < 0 ? null : roleOf.get("t" + t);
            if (role != Role.INPUT && role != Role.INTERMEDIATE) {
                continue;
            }
            TflmView.Entry in = entry.get("t" + t);
            boolean sameShape = Arrays.equals(in.shape(), out.shape());
            boolean fits = switch (code) {
                case BuiltinOperator.RESHAPE -> in.bytes() == out.bytes();
                case BuiltinOperator.QUANTIZE -> sameShape && in.type() == TensorType.INT16 && out.type() == TensorType.INT8;
                default -> sameShape && in.type() == out.type();
            };
            if (fits && pairs.stream().noneMatch(p -> p.input().equals(in.label()))) {
                pairs.add(new Graph.Overwrite(out.label(), in.label(),
                        code == BuiltinOperator.RESHAPE ? Reuse.VIEW : Reuse.ELEMENTWISE));
            }
        }
        return pairs;
    }
}
