package dev.berth.io.onnx;

import dev.berth.arith.Checked;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Network layers: convolutions, pooling, resizing, matrix products, reductions, recurrent
 * layers and normalizations.
 */
final class NeuralOps {
    static final List<String> REDUCE = List.of("ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd",
            "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare");

    private NeuralOps() {
    }

    static void register(Map<String, OpRule> rules) {
        rules.put("Conv", NeuralOps::conv);
        rules.put("ConvInteger", NeuralOps::conv);
        rules.put("ConvTranspose", NeuralOps::convTranspose);
        rules.put("MaxPool", NeuralOps::pool);
        rules.put("AveragePool", NeuralOps::pool);
        rules.put("LpPool", NeuralOps::pool);
        rules.put("GlobalAveragePool", NeuralOps::globalPool);
        rules.put("GlobalMaxPool", NeuralOps::globalPool);
        rules.put("GlobalLpPool", NeuralOps::globalPool);
        rules.put("Resize", NeuralOps::resize);
        rules.put("Upsample", NeuralOps::resize);
        rules.put("Gemm", NeuralOps::gemm);
        rules.put("MatMul", NeuralOps::matMul);
        rules.put("MatMulInteger", NeuralOps::matMul);
        for (String op : REDUCE) {
            rules.put(op, NeuralOps::reduce);
        }
        rules.put("ArgMax", NeuralOps::argReduce);
        rules.put("ArgMin", NeuralOps::argReduce);
        rules.put("TopK", NeuralOps::topK);
        rules.put("LSTM", n -> recurrent(n, 4, 3));
        rules.put("GRU", n -> recurrent(n, 3, 2));
        rules.put("RNN", n -> recurrent(n, 1, 2));
        rules.put("LayerNormalization", NeuralOps::layerNorm);
        rules.put("GroupNormalization", n -> List.of(Inferred.sameAs(n.in(0))));
    }

    /** The spatial window attributes shared by Conv, ConvTranspose and pooling. */
    private record Window(long[] kernel, long[] strides, long[] dilations, long[] pads, String autoPad) {
    }

    private static Window window(Node n, int spatial, long[] kernelDefault) {
        long[] kernel = n.attrInts("kernel_shape").orElse(kernelDefault);
        if (kernel == null) {
            throw n.fail("needs attribute 'kernel_shape'");
        }
        long[] strides = n.attrInts("strides").orElse(ones(spatial));
        long[] dil = n.attrInts("dilations").orElse(ones(spatial));
        long[] pads = n.attrInts("pads").orElse(new long[2 * spatial]);
        String autoPad = n.attrString("auto_pad", "NOTSET");
        check(n, "kernel_shape", kernel, spatial, 1);
        check(n, "strides", strides, spatial, 1);
        check(n, "dilations", dil, spatial, 1);
        check(n, "pads", pads, 2 * spatial, 0);
        if (!List.of("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID").contains(autoPad)) {
            throw n.fail("auto_pad '" + autoPad + "' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID");
        }
        return new Window(kernel, strides, dil, pads, autoPad);
    }

    private static void check(Node n, String name, long[] v, int len, long min) {
        if (v.length != len) {
            throw n.fail("attribute '" + name + "' " + Arrays.toString(v) + " should have " + len + " entries");
        }
        for (long x : v) {
            if (x < min) {
                throw n.fail("attribute '" + name + "' " + Arrays.toString(v) + " has an entry below " + min);
            }
        }
    }

    private static long[] ones(int k) {
        long[] v = new long[k];
        Arrays.fill(v, 1);
        return v;
    }

    /** Output size of a sliding window over {@code in} (Conv and pooling). */
    private static long slide(Node n, Window w, int i, long in, boolean ceil) {
        long k = w.kernel[i];
        long s = w.strides[i];
        long ek = Checked.add(Checked.multiply(w.dilations[i], k - 1), 1);
        if (w.autoPad.startsWith("SAME")) {
            return in / s + (in % s == 0 ? 0 : 1);
        }
        long pb = w.autoPad.equals("VALID") ? 0 : w.pads[i];
        long pe = w.autoPad.equals("VALID") ? 0 : w.pads[i + w.kernel.length];
        long padded = Checked.add(Checked.add(in, pb), pe);
        if (padded < ek) {
            throw n.fail("spatial dimension " + i + ": the window (kernel " + k + ", dilation " + w.dilations[i]
                    + ") spans " + ek + " but the padded input has only " + padded);
        }
        long span = padded - ek;
        long out = span / s + 1;
        if (ceil && span % s != 0) {
            out++;
            // the last window must start inside the input or its leading padding
            long lastStart;
            try {
                lastStart = Math.multiplyExact(out - 1, s);
            } catch (ArithmeticException e) {
                lastStart = Long.MAX_VALUE;
            }
            if (lastStart >= Checked.add(in, pb)) {
                out--;
            }
        }
        return out;
    }

    private static List<Inferred> conv(Node n) {
        TensorInfo x = n.in(0);
        TensorInfo w = n.in(1);
        int r = x.shape().rank();
        if (r < 3) {
            throw n.fail("input 0 '" + x.name() + "' " + x.shape() + " needs rank >= 3 ([N, C, spatial...])");
        }
        if (w.shape().rank() != r) {
            throw n.fail("weights '" + w.name() + "' " + w.shape() + " should have rank " + r + " like input '" + x.name()
                    + "' " + x.shape());
        }
        long group = n.attrInt("group", 1);
        if (group < 1) {
            throw n.fail("group " + group + " must be positive");
        }
        if (Checked.multiply(w.shape().dim(1), group) != x.shape().dim(1)) {
            throw n.fail("input '" + x.name() + "' " + x.shape() + " has " + x.shape().dim(1) + " channels but weights '"
                    + w.name() + "' " + w.shape() + " with group " + group + " expect " + w.shape().dim(1) * group);
        }
        int sp = r - 2;
        Window win = window(n, sp, Arrays.copyOfRange(w.shape().dims(), 2, r));
        long[] out = new long[r];
        out[0] = x.shape().dim(0);
        out[1] = w.shape().dim(0);
        for (int i = 0; i < sp; i++) {
            if (win.kernel[i] != w.shape().dim(i + 2)) {
                throw n.fail("kernel_shape " + Arrays.toString(win.kernel) + " differs from weights '" + w.name() + "' "
                        + w.shape());
            }
            out[i + 2] = slide(n, win, i, x.shape().dim(i + 2), false);
        }
        ElementType type = n.op().equals("ConvInteger") ? ElementType.INT32 : x.type();
        return List.of(Inferred.of(type, Shape.of(out)));
    }

    private static List<Inferred> convTranspose(Node n) {
        TensorInfo x = n.in(0);
        TensorInfo w = n.in(1);
        int r = x.shape().rank();
        if (r < 3 || w.shape().rank() != r) {
            throw n.fail("input '" + x.name() + "' " + x.shape() + " and weights '" + w.name() + "' " + w.shape()
                    + " need the same rank >= 3");
        }
        long group = n.attrInt("group", 1);
        if (group < 1) {
            throw n.fail("group " + group + " must be positive");
        }
        if (w.shape().dim(0) != x.shape().dim(1)) {
            throw n.fail("input '" + x.name() + "' " + x.shape() + " has " + x.shape().dim(1) + " channels but weights '"
                    + w.name() + "' " + w.shape() + " expect " + w.shape().dim(0));
        }
        int sp = r - 2;
        Window win = window(n, sp, Arrays.copyOfRange(w.shape().dims(), 2, r));
        long[] outPad = n.attrInts("output_padding").orElse(new long[sp]);
        check(n, "output_padding", outPad, sp, 0);
        Optional<long[]> outputShape = n.attrInts("output_shape");
        long[] out = new long[r];
        out[0] = x.shape().dim(0);
        out[1] = Checked.multiply(w.shape().dim(1), group);
        for (int i = 0; i < sp; i++) {
            long in = x.shape().dim(i + 2);
            if (outputShape.isPresent()) {
                long[] os = outputShape.get();
                if (os.length < sp) {
                    throw n.fail("output_shape " + Arrays.toString(os) + " has fewer than " + sp + " entries");
                }
                out[i + 2] = os[os.length - sp + i];
                continue;
            }
            if (win.autoPad.startsWith("SAME")) {
                out[i + 2] = Checked.multiply(in, win.strides[i]);
                continue;
            }
            long pads = win.autoPad.equals("VALID") ? 0 : Checked.add(win.pads[i], win.pads[i + sp]);
            long ek = Checked.add(Checked.multiply(win.dilations[i], win.kernel[i] - 1), 1);
            long full = Checked.add(Checked.add(Checked.multiply(win.strides[i], Math.max(0, in - 1)), outPad[i]), ek);
            if (full < pads) {
                throw n.fail("spatial dimension " + i + ": pads " + pads + " exceed the output size " + full);
            }
            out[i + 2] = full - pads;
        }
        return List.of(Inferred.of(x.type(), Shape.of(out)));
    }

    private static List<Inferred> pool(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        if (r < 3) {
            throw n.fail("input 0 '" + x.name() + "' " + x.shape() + " needs rank >= 3 ([N, C, spatial...])");
        }
        int sp = r - 2;
        Window win = window(n, sp, null);
        boolean ceil = n.attrInt("ceil_mode", 0) == 1;
        long[] out = x.shape().dims();
        for (int i = 0; i < sp; i++) {
            out[i + 2] = slide(n, win, i, x.shape().dim(i + 2), ceil);
        }
        Shape s = Shape.of(out);
        return List.of(Inferred.of(x.type(), s), Inferred.of(ElementType.INT64, s));
    }

    private static List<Inferred> globalPool(Node n) {
        TensorInfo x = n.in(0);
        if (x.shape().rank() < 3) {
            throw n.fail("input 0 '" + x.name() + "' " + x.shape() + " needs rank >= 3 ([N, C, spatial...])");
        }
        long[] out = x.shape().dims();
        for (int i = 2; i < out.length; i++) {
            out[i] = 1;
        }
        return List.of(Inferred.of(x.type(), Shape.of(out)));
    }

    /** True when input {@code i} is given and not an empty tensor (the opset 11 way of leaving it out). */
    private static boolean given(Node n, int i) {
        return n.has(i) && n.in(i).shape().elements() > 0;
    }

    private static List<Inferred> resize(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        boolean upsample = n.op().equals("Upsample");
        int scalesAt = upsample || n.opset() < 11 ? 1 : 2;
        int sizesAt = upsample || n.opset() < 11 ? -1 : 3;
        long[] axes = n.attrInts("axes").orElse(null);
        if (axes == null) {
            axes = new long[r];
            for (int i = 0; i < r; i++) {
                axes[i] = i;
            }
        }
        if (!n.attrString("keep_aspect_ratio_policy", "stretch").equals("stretch")) {
            throw n.fail("keep_aspect_ratio_policy '" + n.attrString("keep_aspect_ratio_policy", "") + "' is not supported "
                    + "(only 'stretch')");
        }
        long[] out = x.shape().dims();
        if (sizesAt > 0 && given(n, sizesAt)) {
            long[] sizes = n.ints(sizesAt, "sizes");
            if (sizes.length != axes.length) {
                throw n.fail("sizes " + Arrays.toString(sizes) + " should have " + axes.length + " entries");
            }
            for (int i = 0; i < axes.length; i++) {
                if (sizes[i] < 0) {
                    throw n.fail("sizes " + Arrays.toString(sizes) + " has a negative entry");
                }
                out[n.axis(axes[i], r, "axis")] = sizes[i];
            }
            return List.of(Inferred.of(x.type(), Shape.of(out)));
        }
        double[] scales;
        if (upsample && n.opset() < 9) {
            float[] f = n.attrFloats("scales").orElseThrow(() -> n.fail("needs attribute 'scales'"));
            scales = new double[f.length];
            for (int i = 0; i < f.length; i++) {
                scales[i] = f[i];
            }
        } else if (given(n, scalesAt)) {
            scales = n.values(scalesAt, "scales").doubles();
        } else {
            throw n.fail("needs scales (input " + scalesAt + ")" + (sizesAt > 0 ? " or sizes (input " + sizesAt + ")" : ""));
        }
        if (scales.length != axes.length) {
            throw n.fail("scales " + Arrays.toString(scales) + " should have " + axes.length + " entries");
        }
        for (int i = 0; i < axes.length; i++) {
            int ax = n.axis(axes[i], r, "axis");
            double o = Math.floor(x.shape().dim(ax) * scales[i]);
            if (!(o >= 0) || o >= 0x1p62) {
                throw n.fail("scale " + scales[i] + " on axis " + ax + " gives no valid size");
            }
            out[ax] = (long) o;
        }
        return List.of(Inferred.of(x.type(), Shape.of(out)));
    }

    private static List<Inferred> gemm(Node n) {
        TensorInfo a = n.in(0);
        TensorInfo b = n.in(1);
        if (a.shape().rank() != 2 || b.shape().rank() != 2) {
            throw n.fail("inputs '" + a.name() + "' " + a.shape() + " and '" + b.name() + "' " + b.shape()
                    + " must be matrices (rank 2)");
        }
        boolean ta = n.attrInt("transA", 0) != 0;
        boolean tb = n.attrInt("transB", 0) != 0;
        long m = a.shape().dim(ta ? 1 : 0);
        long ka = a.shape().dim(ta ? 0 : 1);
        long kb = b.shape().dim(tb ? 1 : 0);
        long nn = b.shape().dim(tb ? 0 : 1);
        if (ka != kb) {
            throw n.fail("inner dimensions differ: '" + a.name() + "' " + a.shape() + (ta ? " transposed" : "") + " and '"
                    + b.name() + "' " + b.shape() + (tb ? " transposed" : ""));
        }
        Shape out = Shape.of(m, nn);
        if (n.has(2)) {
            Broadcast.shapes(n, out, n.in(2).shape());
        }
        return List.of(Inferred.of(a.type(), out));
    }

    private static List<Inferred> matMul(Node n) {
        TensorInfo a = n.in(0);
        TensorInfo b = n.in(1);
        Shape sa = a.shape();
        Shape sb = b.shape();
        if (sa.rank() == 0 || sb.rank() == 0) {
            throw n.fail("MatMul inputs cannot be scalars: '" + a.name() + "' " + sa + ", '" + b.name() + "' " + sb);
        }
        long[] da = sa.rank() == 1 ? new long[]{1, sa.dim(0)} : sa.dims();
        long[] db = sb.rank() == 1 ? new long[]{sb.dim(0), 1} : sb.dims();
        if (da[da.length - 1] != db[db.length - 2]) {
            throw n.fail("inner dimensions differ: '" + a.name() + "' " + sa + " and '" + b.name() + "' " + sb);
        }
        Shape batch = Broadcast.shapes(n, Shape.of(Arrays.copyOf(da, da.length - 2)), Shape.of(Arrays.copyOf(db, db.length - 2)));
        List<Long> out = new ArrayList<>();
        for (long d : batch.dims()) {
            out.add(d);
        }
        if (sa.rank() > 1) {
            out.add(da[da.length - 2]);
        }
        if (sb.rank() > 1) {
            out.add(db[db.length - 1]);
        }
        ElementType type = n.op().equals("MatMulInteger") ? ElementType.INT32 : a.type();
        return List.of(Inferred.of(type, Shape.of(out)));
    }

    private static List<Inferred> reduce(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        boolean axesInput = n.opset() >= 18 || (n.op().equals("ReduceSum") && n.opset() >= 13);
        long[] axes = axesInput ? (n.has(1) ? n.ints(1, "axes") : new long[0]) : n.attrInts("axes").orElse(new long[0]);
        boolean keep = n.attrInt("keepdims", 1) != 0;
        if (axes.length == 0 && axesInput && n.attrInt("noop_with_empty_axes", 0) != 0) {
            return List.of(Inferred.like(x));
        }
        boolean[] red = new boolean[r];
        if (axes.length == 0) {
            Arrays.fill(red, true);
        }
        for (long a : axes) {
            red[n.axis(a, r, "axis")] = true;
        }
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < r; i++) {
            if (!red[i]) {
                out.add(x.shape().dim(i));
            } else if (keep) {
                out.add(1L);
            }
        }
        Shape os = Shape.of(out);
        return List.of(new Inferred(x.type(), os, foldReduce(n.op(), x, red, os)));
    }

    /** Integer Sum/Prod/Max/Min reductions of known values (shape arithmetic). */
    private static Optional<Values> foldReduce(String op, TensorInfo x, boolean[] red, Shape out) {
        if (!List.of("ReduceSum", "ReduceProd", "ReduceMax", "ReduceMin").contains(op) || x.values().isEmpty()
                || !x.values().get().integral() || x.shape().elements() > Fold.LIMIT) {
            return Optional.empty();
        }
        Values v = x.values().get();
        int r = x.shape().rank();
        long[] inStride = Fold.strides(x.shape());
        long[] keptStride = new long[r];
        long acc = 1;
        for (int k = r - 1; k >= 0; k--) {
            keptStride[k] = red[k] ? 0 : acc;
            acc *= red[k] ? 1 : x.shape().dim(k);
        }
        long[] res = new long[(int) out.elements()];
        boolean[] seen = new boolean[res.length];
        try {
            for (int e = 0; e < v.size(); e++) {
                long o = 0;
                for (int k = 0; k < r; k++) {
                    o += (e / inStride[k] % x.shape().dim(k)) * keptStride[k];
                }
                int oi = (int) o;
                long val = v.longAt(e);
                if (!seen[oi]) {
                    res[oi] = val;
                    seen[oi] = true;
                } else {
                    res[oi] = switch (op) {
                        case "ReduceSum" -> Math.addExact(res[oi], val);
                        case "ReduceProd" -> Math.multiplyExact(res[oi], val);
                        case "ReduceMax" -> Math.max(res[oi], val);
                        default -> Math.min(res[oi], val);
                    };
                }
            }
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
        for (int i = 0; i < res.length; i++) {
            if (!seen[i]) {
                if (op.equals("ReduceSum") || op.equals("ReduceProd")) {
                    res[i] = op.equals("ReduceSum") ? 0 : 1;
                } else {
                    return Optional.empty();
                }
            }
        }
        return Fold.ints(x.type(), res);
    }

    private static List<Inferred> argReduce(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        int axis = n.axis(n.attrInt("axis", 0), r, "axis");
        boolean keep = n.attrInt("keepdims", 1) != 0;
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < r; i++) {
            if (i != axis) {
                out.add(x.shape().dim(i));
            } else if (keep) {
                out.add(1L);
            }
        }
        return List.of(Inferred.of(ElementType.INT64, Shape.of(out)));
    }

    private static List<Inferred> topK(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        int axis = n.axis(n.attrInt("axis", -1), r, "axis");
        long k;
        if (n.opset() >= 10) {
            long[] kv = n.ints(1, "K");
            if (kv.length != 1) {
                throw n.fail("K must hold one value");
            }
            k = kv[0];
        } else {
            k = n.attrInt("k").orElseThrow(() -> n.fail("needs attribute 'k'"));
        }
        if (k < 0 || k > x.shape().dim(axis)) {
            throw n.fail("K " + k + " is outside [0, " + x.shape().dim(axis) + "]");
        }
        Shape s = x.shape().with(axis, k);
        return List.of(Inferred.of(x.type(), s), Inferred.of(ElementType.INT64, s));
    }

    /** LSTM (4 gates), GRU (3), RNN (1): Y, Y_h (and LSTM's Y_c). */
    private static List<Inferred> recurrent(Node n, int gates, int outputs) {
        TensorInfo x = n.in(0);
        TensorInfo w = n.in(1);
        if (x.shape().rank() != 3 || w.shape().rank() != 3) {
            throw n.fail("input '" + x.name() + "' " + x.shape() + " and weights '" + w.name() + "' " + w.shape()
                    + " must have rank 3");
        }
        String dir = n.attrString("direction", "forward");
        if (!List.of("forward", "reverse", "bidirectional").contains(dir)) {
            throw n.fail("direction '" + dir + "' is not forward, reverse or bidirectional");
        }
        long dirs = dir.equals("bidirectional") ? 2 : 1;
        if (w.shape().dim(0) != dirs) {
            throw n.fail("weights '" + w.name() + "' " + w.shape() + " are for " + w.shape().dim(0) + " directions, "
                    + "direction '" + dir + "' has " + dirs);
        }
        long hidden = n.attrInt("hidden_size").orElse(w.shape().dim(1) / gates);
        if (hidden < 1) {
            throw n.fail("hidden_size " + hidden + " must be positive");
        }
        if (Checked.multiply(hidden, gates) != w.shape().dim(1)) {
            throw n.fail("hidden_size " + hidden + " × " + gates + " gates does not match weights '" + w.name() + "' "
                    + w.shape());
        }
        boolean batchFirst = n.attrInt("layout", 0) == 1;
        long seq = x.shape().dim(batchFirst ? 1 : 0);
        long batch = x.shape().dim(batchFirst ? 0 : 1);
        Shape y = batchFirst ? Shape.of(batch, seq, dirs, hidden) : Shape.of(seq, dirs, batch, hidden);
        Shape state = batchFirst ? Shape.of(batch, dirs, hidden) : Shape.of(dirs, batch, hidden);
        List<Inferred> out = new ArrayList<>();
        out.add(Inferred.of(x.type(), y));
        for (int i = 1; i < outputs; i++) {
            out.add(Inferred.of(x.type(), state));
        }
        return out;
    }

    private static List<Inferred> layerNorm(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        int axis = n.axis(n.attrInt("axis", -1), r, "axis");
        long[] stat = x.shape().dims();
        for (int i = axis; i < r; i++) {
            stat[i] = 1;
        }
        ElementType st = ElementType.of((int) n.attrInt("stash_type", 1), n.label() + " attribute 'stash_type'");
        return List.of(Inferred.sameAs(x), Inferred.of(st, Shape.of(stat)), Inferred.of(st, Shape.of(stat)));
    }
}
