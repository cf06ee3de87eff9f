package dev.berth.io.tflite;

import dev.berth.arith.Checked;
import dev.berth.failure.Require;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The scratch buffers TFLM's reference kernels request in their {@code Prepare}
 * ({@code RequestScratchBufferInArena}), predicted from the operators' tensors, as the kernels of
 * tflite-micro at the commit {@code testdata/models/tflite/verify-in-tflm.md} names compute them:
 *
 * <ul>
 *   <li>SVDF: int8 input, {@code 4·batch·filters} then {@code 4·batch·units} bytes; float input,
 *       {@code 4·batch·filters} (batch: the input's first dimension, filters: the feature weights',
 *       units: the output's second);</li>
 *   <li>UNIDIRECTIONAL_SEQUENCE_LSTM: four of {@code elements(cell state) × its element size}
 *       (the cell state is input 19, {@code batch × state} elements);</li>
 *   <li>CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED with int4 weights (input 1): the weights'
 *       element count (they are unpacked to one byte each);</li>
 *   <li>TRANSPOSE_CONV: int8 input (input 2), {@code 4·elements(output)}; int16 input,
 *       {@code 8·elements(output)}, then with an int16 bias (input 3) {@code 8·elements(bias)};</li>
 *   <li>MEAN, SUM: with an int8 or int16 input {@code 4·elements(output)}, then {@code 4·rank(input)}
 *       and {@code 4·elements(axis)} (axis: input 1); REDUCE_MAX, REDUCE_MIN, REDUCE_ALL: the last two;</li>
 *   <li>MIRROR_PAD: {@code 4·rank(input)} twice;</li>
 *   <li>every other operator TFLM registers a reference kernel for: none.</li>
 * </ul>
 *
 * Each request lives over the steps TFLM gives it ({@link TflmView#scratchSteps}), in the order
 * TFLM's {@code Prepare} makes them (subgraphs in order, their operators in order). What Berth does
 * not know is said, never guessed: a custom operator, ADD_N (its requests hold pointers, whose size
 * is the device's), a builtin operator TFLM has no reference kernel for, an SVDF or LSTM of a type
 * its {@code Prepare} refuses, an operator of a subgraph nothing runs that would request one.
 */
public final class TflmKernels {
    /** The kernel library a model runs with ({@code --tflm-kernels}). */
    public enum Library {
        /** TFLM's reference kernels, whose requests Berth predicts. */
        REFERENCE("reference"),
        /** Another library (CMSIS-NN, vendor kernels): its requests are other sizes, which Berth does not predict. */
        OTHER("other");

        private final String id;

        Library(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        /** {@code reference} or {@code other}, else {@code invalid-input} naming {@code --tflm-kernels}. */
        public static Library of(String id) {
            for (Library l : values()) {
                if (l.id.equals(id)) {
                    return l;
                }
            }
            throw Require.invalid("--tflm-kernels", id, "reference (TFLM's reference kernels) "
                    + "or other (another kernel library, whose scratch requests Berth does not predict), got " + id);
        }
    }

    /**
     * What Berth predicts: the requests, in TFLM's order, and per operator whose requests it does
     * not know (its name, and why), how many there are.
     */
    public record Prediction(List<TflmScratch> scratch, Map<String, Integer> unknown) {
        public Prediction {
            scratch = List.copyOf(scratch);
            unknown = Collections.unmodifiableMap(new LinkedHashMap<>(unknown));
        }

        /** Every operator's requests are known. */
        public boolean complete() {
            return unknown.isEmpty();
        }
    }

    private static final int F32 = 0;
    private static final int INT16 = 7;
    private static final int INT8 = 9;
    private static final int INT4 = 17;

    /** The builtin operators TFLM registers a reference kernel for (its MicroMutableOpResolver). */
    private static final Set<String> REFERENCE = Set.of("ABS", "ADD", "ADD_N", "ARG_MAX", "ARG_MIN",
            "ASSIGN_VARIABLE", "AVERAGE_POOL_2D", "BATCH_MATMUL", "BATCH_TO_SPACE_ND", "BROADCAST_ARGS",
            "BROADCAST_TO", "CALL_ONCE", "CAST", "CEIL", "CONCATENATION", "CONV_2D", "COS", "CUMSUM",
            "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE", "DEQUANTIZE", "DIV", "DYNAMIC_UPDATE_SLICE", "ELU",
            "EMBEDDING_LOOKUP", "EQUAL", "EXP", "EXPAND_DIMS", "FILL", "FLOOR", "FLOOR_DIV", "FLOOR_MOD",
            "FULLY_CONNECTED", "GATHER", "GATHER_ND", "GREATER", "GREATER_EQUAL", "HARD_SWISH", "IF",
            "L2_NORMALIZATION", "L2_POOL_2D", "LEAKY_RELU", "LESS", "LESS_EQUAL", "LOG", "LOGICAL_AND",
            "LOGICAL_NOT", "LOGICAL_OR", "LOGISTIC", "LOG_SOFTMAX", "MAXIMUM", "MAX_POOL_2D", "MEAN", "MINIMUM",
            "MIRROR_PAD", "MUL", "NEG", "NOT_EQUAL", "PACK", "PAD", "PADV2", "PRELU", "QUANTIZE", "READ_VARIABLE",
            "REDUCE_ALL", "REDUCE_MAX", "REDUCE_MIN", "RELU", "RELU6", "RESHAPE", "RESIZE_BILINEAR",
            "RESIZE_NEAREST_NEIGHBOR", "REVERSE_V2", "ROUND", "RSQRT", "SELECT_V2", "SHAPE", "SIN", "SLICE",
            "SOFTMAX", "SPACE_TO_BATCH_ND", "SPACE_TO_DEPTH", "SPLIT", "SPLIT_V", "SQRT", "SQUARE",
            "SQUARED_DIFFERENCE", "SQUEEZE", "STRIDED_SLICE", "SUB", "SUM", "SVDF", "TANH", "TRANSPOSE",
            "TRANSPOSE_CONV", "UNIDIRECTIONAL_SEQUENCE_LSTM", "UNPACK", "VAR_HANDLE", "WHILE", "ZEROS_LIKE");

    private TflmKernels() {
    }

    /** The reference kernels' requests for {@code m}, whose TFLM view is {@code view}; {@code what} names the file. */
    public static Prediction reference(TfliteModel m, TflmView view, String what) {
        Require.nonNull(m, "m");
        Require.nonNull(view, "view");
        List<TflmScratch> out = new ArrayList<>();
        Map<String, Integer> unknown = new LinkedHashMap<>();
        for (TfliteModel.Subgraph g : m.subgraphs()) {
            for (TfliteModel.Operator op : g.operators()) {
                String name = op.opName();
                List<Long> sizes;
                if (!op.customCode().isEmpty() || name.startsWith("CUSTOM")) {
                    unknown.merge(name + " (a custom operator)", 1, Integer::sum);
                    continue;
                } else if (name.equals("ADD_N")) {
                    unknown.merge(name + " (its requests hold pointers, whose size is the device's)", 1, Integer::sum);
                    continue;
                } else if (!REFERENCE.contains(name)) {
                    unknown.merge(name + " (TFLM has no reference kernel for it)", 1, Integer::sum);
                    continue;
                }
                Optional<String> refused = refused(g, op, name, what);
                if (refused.isPresent()) {
                    unknown.merge(name + " (" + refused.get() + ")", 1, Integer::sum);
                    continue;
                }
                sizes = requests(g, op, name, what);
                if (sizes.isEmpty()) {
                    continue;
                }
                int[] steps = view.scratchSteps(g.index(), op.index());
                if (steps[0] == TflmView.UNSET) {
                    unknown.merge(name + " (in a subgraph nothing runs)", 1, Integer::sum);
                    continue;
                }
                for (long size : sizes) {
                    if (size > TflmScratch.MAX_SIZE) {
                        throw Require.invalid(what, "subgraph " + g.index() + " operator " + op.index()
                                + " (" + name + ") would request a scratch buffer of " + size + " bytes, more than "
                                + "TFLM's int holds");
                    }
                    out.add(new TflmScratch(size, steps[0], steps[1]));
                }
            }
        }
        return new Prediction(out, unknown);
    }

    /**
     * Why {@code op}'s reference kernel refuses it in its {@code Prepare} before any request, for the
     * types whose requests would otherwise be guessed: SVDF takes a float32 or int8 input, the LSTM a
     * float32 or int16 cell state (input 19); empty when it does not.
     */
    private static Optional<String> refused(TfliteModel.Subgraph g, TfliteModel.Operator op, String name, String what) {
        if (name.equals("SVDF")) {
            int type = input(g, op, 0, name, what).type();
            return type == F32 || type == INT8 ? Optional.empty()
                    : Optional.of("its Prepare refuses an input of " + TfliteTypes.name(type));
        }
        if (name.equals("UNIDIRECTIONAL_SEQUENCE_LSTM")) {
            int type = input(g, op, 19, name, what).type();
            return type == F32 || type == INT16 ? Optional.empty()
                    : Optional.of("its Prepare refuses a cell state of " + TfliteTypes.name(type));
        }
        return Optional.empty();
    }

    /** The bytes of each request {@code op}'s reference kernel makes in its {@code Prepare}, in order. */
    private static List<Long> requests(TfliteModel.Subgraph g, TfliteModel.Operator op, String name, String what) {
        switch (name) {
            case "SVDF" -> {
                TfliteModel.Tensor input = input(g, op, 0, name, what);
                long batch = dim(input, 0, name, what);
                long filters = dim(input(g, op, 1, name, what), 0, name, what);
                long units = dim(output(g, op, name, what), 1, name, what);
                return input.type() == INT8 ? List.of(Checked.multiply(4, Checked.multiply(batch, filters)),
                        Checked.multiply(4, Checked.multiply(batch, units)))
                        : List.of(Checked.multiply(4, Checked.multiply(batch, filters)));
            }
            case "UNIDIRECTIONAL_SEQUENCE_LSTM" -> {
                TfliteModel.Tensor cell = input(g, op, 19, name, what);
                // float32 or int16 (refused() said so): 4 or 2 bytes an element
                long bytes = Checked.multiply(elements(cell), TfliteTypes.elementSize(cell.type()));
                return List.of(bytes, bytes, bytes, bytes);
            }
            case "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED" -> {
                TfliteModel.Tensor filter = input(g, op, 1, name, what);
                return filter.type() == INT4 ? List.of(elements(filter)) : List.of();
            }
            case "TRANSPOSE_CONV" -> {
                TfliteModel.Tensor input = input(g, op, 2, name, what);
                long out = elements(output(g, op, name, what));
                if (input.type() == INT8) {
                    return List.of(Checked.multiply(4, out));
                }
                if (input.type() == INT16) {
                    List<Long> r = new ArrayList<>(List.of(Checked.multiply(8, out)));
                    if (op.inputs().length > 3 && op.inputs()[3] >= 0
                            && g.tensors().get(op.inputs()[3]).type() == INT16) {
                        r.add(Checked.multiply(8, elements(g.tensors().get(op.inputs()[3]))));
                    }
                    return r;
                }
                return List.of();
            }
            case "MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_ALL" -> {
                TfliteModel.Tensor input = input(g, op, 0, name, what);
                List<Long> r = new ArrayList<>();
                if ((name.equals("MEAN") || name.equals("SUM")) && (input.type() == INT8 || input.type() == INT16)) {
                    r.add(Checked.multiply(4, elements(output(g, op, name, what))));
                }
                r.add(Checked.multiply(4, input.shape().length));
                r.add(Checked.multiply(4, elements(input(g, op, 1, name, what))));
                return r;
            }
            case "MIRROR_PAD" -> {
                long bytes = Checked.multiply(4, input(g, op, 0, name, what).shape().length);
                return List.of(bytes, bytes);
            }
            default -> {
                return List.of();
            }
        }
    }

    private static TfliteModel.Tensor input(TfliteModel.Subgraph g, TfliteModel.Operator op, int k, String name,
                                            String what) {
        if (k >= op.inputs().length || op.inputs()[k] < 0) {
            throw Require.invalid(what, "subgraph " + g.index() + " operator " + op.index() + " ("
                    + name + ") has no input " + k + ", which TFLM's kernel reads in its Prepare");
        }
        return g.tensors().get(op.inputs()[k]);
    }

    private static TfliteModel.Tensor output(TfliteModel.Subgraph g, TfliteModel.Operator op, String name,
                                             String what) {
        if (op.outputs().length == 0 || op.outputs()[0] < 0) {
            throw Require.invalid(what, "subgraph " + g.index() + " operator " + op.index() + " ("
                    + name + ") has no output, which TFLM's kernel reads in its Prepare");
        }
        return g.tensors().get(op.outputs()[0]);
    }

    private static long dim(TfliteModel.Tensor t, int d, String name, String what) {
        if (d >= t.shape().length) {
            throw Require.invalid(what, "tensor " + t.label() + " of " + name + " has shape "
                    + Arrays.toString(t.shape()) + ", without the dimension " + d + " TFLM's kernel reads");
        }
        return t.shape()[d];
    }

    private static long elements(TfliteModel.Tensor t) {
        long n = 1;
        for (int d : t.shape()) {
            n = Checked.multiply(n, Math.max(0, d));
        }
        return n;
    }
}
