package dev.berth.io.onnx;

import dev.berth.arith.Checked;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Ops that move, select or describe data: Shape, Gather, Reshape, Squeeze, Unsqueeze, Flatten,
 * Transpose, Concat, Split, Slice, Expand, Tile, Pad, ConstantOfShape, Range and friends. Where
 * the inputs' values are known they fold, which is how shape chains become constants.
 */
final class TensorOps {
    private TensorOps() {
    }

    static void register(Map<String, OpRule> rules) {
        rules.put("Shape", TensorOps::shape);
        rules.put("Size", n -> List.of(Inferred.of(ElementType.INT64, Shape.SCALAR, Values.ofInts(n.in(0).shape().elements()))));
        rules.put("Gather", TensorOps::gather);
        rules.put("GatherElements", n -> List.of(Inferred.of(n.in(0).type(), n.in(1).shape())));
        rules.put("Unsqueeze", TensorOps::unsqueeze);
        rules.put("Squeeze", TensorOps::squeeze);
        rules.put("Reshape", TensorOps::reshape);
        rules.put("Flatten", TensorOps::flatten);
        rules.put("Transpose", TensorOps::transpose);
        rules.put("Concat", TensorOps::concat);
        rules.put("Split", TensorOps::split);
        rules.put("Slice", TensorOps::slice);
        rules.put("Expand", TensorOps::expand);
        rules.put("Tile", TensorOps::tile);
        rules.put("Pad", TensorOps::pad);
        rules.put("ConstantOfShape", TensorOps::constantOfShape);
        rules.put("Range", TensorOps::range);
        rules.put("DepthToSpace", n -> List.of(spaceDepth(n, true)));
        rules.put("SpaceToDepth", n -> List.of(spaceDepth(n, false)));
        rules.put("OneHot", TensorOps::oneHot);
        rules.put("ScatterND", n -> List.of(Inferred.sameAs(n.in(0))));
        rules.put("ScatterElements", n -> List.of(Inferred.sameAs(n.in(0))));
        rules.put("Scatter", n -> List.of(Inferred.sameAs(n.in(0))));
        rules.put("Trilu", n -> List.of(Inferred.sameAs(n.in(0))));
        rules.put("EyeLike", n -> List.of(Inferred.of(n.attrInt("dtype").isPresent()
                ? ElementType.of((int) n.attrInt("dtype").getAsLong(), n.label() + " attribute 'dtype'")
                : n.in(0).type(), n.in(0).shape())));
    }

    private static List<Inferred> shape(Node n) {
        long[] d = n.in(0).shape().dims();
        int r = d.length;
        long start = n.attrInt("start", 0);
        long end = n.attrInt("end", r);
        start = Math.max(0, Math.min(r, start < 0 ? start + r : start));
        end = Math.max(0, Math.min(r, end < 0 ? end + r : end));
        long[] v = end > start ? Arrays.copyOfRange(d, (int) start, (int) end) : new long[0];
        return List.of(Inferred.of(ElementType.INT64, Shape.of(v.length), Values.ofInts(v)));
    }

    private static List<Inferred> gather(Node n) {
        TensorInfo data = n.in(0);
        TensorInfo idx = n.in(1);
        int r = data.shape().rank();
        if (r == 0) {
            throw n.fail("input 0 '" + data.name() + "' is a scalar; Gather needs rank >= 1");
        }
        int axis = n.axis(n.attrInt("axis", 0), r, "axis");
        long[] d = data.shape().dims();
        long[] out = new long[r - 1 + idx.shape().rank()];
        int k = 0;
        for (int i = 0; i < axis; i++) {
            out[k++] = d[i];
        }
        for (int i = 0; i < idx.shape().rank(); i++) {
            out[k++] = idx.shape().dim(i);
        }
        for (int i = axis + 1; i < r; i++) {
            out[k++] = d[i];
        }
        Shape os = Shape.of(out);
        Optional<Values> v = Optional.empty();
        if (Fold.ready(os, List.of(data, idx)) && idx.values().get().integral()) {
            long dim = d[axis];
            long[] ind = idx.values().get().longs();
            for (int j = 0; j < ind.length; j++) {
                if (ind[j] < -dim || ind[j] >= dim) {
                    throw n.fail("index " + ind[j] + " of input 1 '" + idx.name() + "' is outside [" + (-dim) + ", "
                            + (dim - 1) + "] for axis " + axis + " of " + data.name() + " " + data.shape());
                }
                ind[j] = ind[j] < 0 ? ind[j] + dim : ind[j];
            }
            int outer = (int) data.shape().elements(0, axis);
            int inner = (int) data.shape().elements(axis + 1, r);
            int[] pick = new int[(int) os.elements()];
            int p = 0;
            for (int o = 0; o < outer; o++) {
                for (long j : ind) {
                    for (int i = 0; i < inner; i++) {
                        pick[p++] = (int) ((o * dim + j) * inner + i);
                    }
                }
            }
            v = Optional.of(Fold.pick(data.values().get(), pick));
        }
        return List.of(new Inferred(data.type(), os, v));
    }

    /** Axes given as an attribute before opset 13 and as input 1 from opset 13 on. */
    private static Optional<long[]> axes(Node n, int sinceInput) {
        if (n.opset() >= sinceInput) {
            return n.has(1) ? Optional.of(n.ints(1, "axes")) : Optional.empty();
        }
        return n.attrInts("axes");
    }

    private static List<Inferred> unsqueeze(Node n) {
        TensorInfo x = n.in(0);
        long[] axes = axes(n, 13).orElseThrow(() -> n.fail("needs axes (" + (n.opset() >= 13 ? "input 1" : "attribute 'axes'")
                + ")"));
        int outRank = x.shape().rank() + axes.length;
        boolean[] inserted = new boolean[outRank];
        for (long a : axes) {
            int ax = n.axis(a, outRank, "axis");
            if (inserted[ax]) {
                throw n.fail("axis " + a + " is given twice");
            }
            inserted[ax] = true;
        }
        long[] out = new long[outRank];
        for (int j = 0, k = 0; j < outRank; j++) {
            out[j] = inserted[j] ? 1 : x.shape().dim(k++);
        }
        return List.of(new Inferred(x.type(), Shape.of(out), x.values()));
    }

    private static List<Inferred> squeeze(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        Optional<long[]> axes = axes(n, 13);
        boolean[] drop = new boolean[r];
        if (axes.isEmpty()) {
            for (int i = 0; i < r; i++) {
                drop[i] = x.shape().dim(i) == 1;
            }
        } else {
            for (long a : axes.get()) {
                int ax = n.axis(a, r, "axis");
                if (x.shape().dim(ax) != 1) {
                    throw n.fail("cannot squeeze axis " + a + " of '" + x.name() + "' " + x.shape() + ": its size is "
                            + x.shape().dim(ax) + ", not 1");
                }
                drop[ax] = true;
            }
        }
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < r; i++) {
            if (!drop[i]) {
                out.add(x.shape().dim(i));
            }
        }
        return List.of(new Inferred(x.type(), Shape.of(out), x.values()));
    }

    private static List<Inferred> reshape(Node n) {
        TensorInfo x = n.in(0);
        long[] s = n.opset() >= 5 ? n.ints(1, "shape")
                : n.attrInts("shape").orElseThrow(() -> n.fail("needs attribute 'shape'"));
        boolean allowZero = n.attrInt("allowzero", 0) == 1;
        long total = x.shape().elements();
        long[] out = new long[s.length];
        int unknown = -1;
        long known = 1;
        boolean overflow = false;
        for (int i = 0; i < s.length; i++) {
            if (s[i] == 0 && !allowZero) {
                if (i >= x.shape().rank()) {
                    throw n.fail("shape " + Arrays.toString(s) + " copies dimension " + i + " (0) but '" + x.name()
                            + "' " + x.shape() + " has rank " + x.shape().rank());
                }
                out[i] = x.shape().dim(i);
            } else if (s[i] == -1) {
                if (unknown >= 0) {
                    throw n.fail("shape " + Arrays.toString(s) + " has more than one -1");
                }
                unknown = i;
                continue;
            } else if (s[i] < 0) {
                throw n.fail("shape " + Arrays.toString(s) + " has a negative dimension " + s[i]);
            } else {
                out[i] = s[i];
            }
            try {
                known = Math.multiplyExact(known, out[i]);
            } catch (ArithmeticException e) {
                overflow = true;
            }
        }
        if (unknown >= 0) {
            if (overflow || known == 0 || total % known != 0) {
                throw n.fail("cannot reshape '" + x.name() + "' " + x.shape() + " (" + total + " elements) to "
                        + Arrays.toString(s) + ": the known dimensions do not divide the element count");
            }
            out[unknown] = total / known;
        } else if (overflow || known != total) {
            throw n.fail("cannot reshape '" + x.name() + "' " + x.shape() + " (" + total + " elements) to "
                    + Arrays.toString(out) + ": the element counts differ");
        }
        return List.of(new Inferred(x.type(), Shape.of(out), x.values()));
    }

    private static List<Inferred> flatten(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        long a = n.attrInt("axis", 1);
        if (a < -r || a > r) {
            throw n.fail("axis " + a + " is outside [" + (-r) + ", " + r + "] for rank " + r);
        }
        int axis = (int) (a < 0 ? a + r : a);
        Shape out = Shape.of(x.shape().elements(0, axis), x.shape().elements(axis, r));
        return List.of(new Inferred(x.type(), out, x.values()));
    }

    private static List<Inferred> transpose(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        long[] perm = n.attrInts("perm").orElse(null);
        if (perm == null) {
            perm = new long[r];
            for (int i = 0; i < r; i++) {
                perm[i] = r - 1 - i;
            }
        }
        if (perm.length != r) {
            throw n.fail("perm " + Arrays.toString(perm) + " has " + perm.length + " entries for rank " + r);
        }
        boolean[] seen = new boolean[r];
        long[] out = new long[r];
        int[] p = new int[r];
        for (int i = 0; i < r; i++) {
            int ax = n.axis(perm[i], r, "perm entry");
            if (seen[ax]) {
                throw n.fail("perm " + Arrays.toString(perm) + " is not a permutation");
            }
            seen[ax] = true;
            p[i] = ax;
            out[i] = x.shape().dim(ax);
        }
        Shape os = Shape.of(out);
        Optional<Values> v = Optional.empty();
        if (Fold.ready(os, List.of(x))) {
            long[] inStride = Fold.strides(x.shape());
            int[] pick = new int[(int) os.elements()];
            long[] idx = new long[r];
            for (int e = 0; e < pick.length; e++) {
                long flat = 0;
                for (int k = 0; k < r; k++) {
                    flat += idx[k] * inStride[p[k]];
                }
                pick[e] = (int) flat;
                for (int k = r - 1; k >= 0; k--) {
                    if (++idx[k] < out[k]) {
                        break;
                    }
                    idx[k] = 0;
                }
            }
            v = Optional.of(Fold.pick(x.values().get(), pick));
        }
        return List.of(new Inferred(x.type(), os, v));
    }

    private static List<Inferred> concat(Node n) {
        if (n.inputCount() == 0) {
            throw n.fail("needs at least one input");
        }
        TensorInfo first = n.in(0);
        int r = first.shape().rank();
        if (r == 0) {
            throw n.fail("cannot concatenate scalars");
        }
        int axis = n.axis(n.attrInt("axis").orElseThrow(() -> n.fail("needs attribute 'axis'")), r, "axis");
        long[] out = first.shape().dims();
        out[axis] = 0;
        List<TensorInfo> ins = new ArrayList<>();
        for (int i = 0; i < n.inputCount(); i++) {
            TensorInfo t = n.in(i);
            ins.add(t);
            if (t.shape().rank() != r) {
                throw n.fail("input " + i + " '" + t.name() + "' " + t.shape() + " has rank " + t.shape().rank()
                        + ", input 0 '" + first.name() + "' " + first.shape() + " has rank " + r);
            }
            for (int k = 0; k < r; k++) {
                if (k != axis && t.shape().dim(k) != first.shape().dim(k)) {
                    throw n.fail("input " + i + " '" + t.name() + "' " + t.shape() + " differs from input 0 '"
                            + first.name() + "' " + first.shape() + " in dimension " + k + " (concatenating on axis "
                            + axis + ")");
                }
            }
            out[axis] = Checked.add(out[axis], t.shape().dim(axis));
        }
        Shape os = Shape.of(out);
        Optional<Values> v = Optional.empty();
        if (Fold.ready(os, ins) && sameKind(ins)) {
            int outer = (int) first.shape().elements(0, axis);
            List<Values> parts = new ArrayList<>();
            for (TensorInfo t : ins) {
                parts.add(t.values().get());
            }
            boolean integral = parts.get(0).integral();
            long[] li = integral ? new long[(int) os.elements()] : null;
            double[] ld = integral ? null : new double[(int) os.elements()];
            int p = 0;
            for (int o = 0; o < outer; o++) {
                for (int i = 0; i < ins.size(); i++) {
                    int chunk = (int) ins.get(i).shape().elements(axis, r);
                    for (int e = 0; e < chunk; e++) {
                        if (integral) {
                            li[p++] = parts.get(i).longAt(o * chunk + e);
                        } else {
                            ld[p++] = parts.get(i).doubleAt(o * chunk + e);
                        }
                    }
                }
            }
            v = Optional.of(integral ? Values.ofInts(li) : Values.ofReals(ld));
        }
        return List.of(new Inferred(first.type(), os, v));
    }

    private static boolean sameKind(List<TensorInfo> ins) {
        boolean integral = ins.get(0).values().get().integral();
        for (TensorInfo t : ins) {
            if (t.values().get().integral() != integral) {
                return false;
            }
        }
        return true;
    }

    private static List<Inferred> split(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        int axis = n.axis(n.attrInt("axis", 0), r, "axis");
        long d = x.shape().dim(axis);
        int outs = n.outputCount();
        long[] sizes;
        if (n.opset() >= 13 && n.has(1)) {
            sizes = n.ints(1, "split");
        } else if (n.opset() < 13 && n.attrInts("split").isPresent()) {
            sizes = n.attrInts("split").get();
        } else if (n.attrInt("num_outputs").isPresent()) {
            long num = n.attrInt("num_outputs").getAsLong();
            if (num < 1 || num != outs) {
                throw n.fail("num_outputs " + num + " does not match the node's " + outs + " outputs");
            }
            long chunk = d / num + (d % num == 0 ? 0 : 1);
            sizes = new long[(int) num];
            long left = d;
            for (int i = 0; i < num; i++) {
                sizes[i] = Math.min(chunk, left);
                left -= sizes[i];
            }
        } else {
            if (outs < 1 || d % outs != 0) {
                throw n.fail("cannot split dimension " + axis + " of '" + x.name() + "' " + x.shape() + " (" + d
                        + ") into " + outs + " equal parts");
            }
            sizes = new long[outs];
            Arrays.fill(sizes, d / outs);
        }
        if (sizes.length != outs) {
            throw n.fail("split sizes " + Arrays.toString(sizes) + " give " + sizes.length + " parts but the node has "
                    + outs + " outputs");
        }
        long sum = 0;
        List<Inferred> res = new ArrayList<>();
        for (long s : sizes) {
            if (s < 0) {
                throw n.fail("split sizes " + Arrays.toString(sizes) + " contain a negative size");
            }
            sum = Checked.add(sum, s);
            res.add(Inferred.of(x.type(), x.shape().with(axis, s)));
        }
        if (sum != d) {
            throw n.fail("split sizes " + Arrays.toString(sizes) + " add up to " + sum + ", but dimension " + axis
                    + " of '" + x.name() + "' " + x.shape() + " is " + d);
        }
        return res;
    }

    private static List<Inferred> slice(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        long[] starts;
        long[] ends;
        long[] axes;
        long[] steps;
        if (n.opset() >= 10) {
            starts = n.ints(1, "starts");
            ends = n.ints(2, "ends");
            axes = n.has(3) ? n.ints(3, "axes") : null;
            steps = n.has(4) ? n.ints(4, "steps") : null;
        } else {
            starts = n.attrInts("starts").orElseThrow(() -> n.fail("needs attribute 'starts'"));
            ends = n.attrInts("ends").orElseThrow(() -> n.fail("needs attribute 'ends'"));
            axes = n.attrInts("axes").orElse(null);
            steps = null;
        }
        if (axes == null) {
            axes = new long[starts.length];
            for (int i = 0; i < axes.length; i++) {
                axes[i] = i;
            }
        }
        if (steps == null) {
            steps = new long[starts.length];
            Arrays.fill(steps, 1);
        }
        if (ends.length != starts.length || axes.length != starts.length || steps.length != starts.length) {
            throw n.fail("starts, ends, axes and steps have different lengths (" + starts.length + ", " + ends.length
                    + ", " + axes.length + ", " + steps.length + ")");
        }
        long[] out = x.shape().dims();
        long[] first = new long[r];
        long[] step = new long[r];
        Arrays.fill(step, 1);
        boolean[] seen = new boolean[r];
        for (int i = 0; i < starts.length; i++) {
            int ax = n.axis(axes[i], r, "axis");
            if (seen[ax]) {
                throw n.fail("axis " + axes[i] + " is sliced twice");
            }
            seen[ax] = true;
            if (steps[i] == 0) {
                throw n.fail("step 0 on axis " + axes[i]);
            }
            long[] se = sliceDim(x.shape().dim(ax), starts[i], ends[i], steps[i]);
            first[ax] = se[0];
            out[ax] = se[1];
            step[ax] = steps[i];
        }
        Shape os = Shape.of(out);
        Optional<Values> v = Optional.empty();
        if (Fold.ready(os, List.of(x))) {
            long[] inStride = Fold.strides(x.shape());
            int[] pick = new int[(int) os.elements()];
            long[] idx = new long[r];
            for (int e = 0; e < pick.length; e++) {
                long flat = 0;
                for (int k = 0; k < r; k++) {
                    flat += (first[k] + idx[k] * step[k]) * inStride[k];
                }
                pick[e] = (int) flat;
                for (int k = r - 1; k >= 0; k--) {
                    if (++idx[k] < out[k]) {
                        break;
                    }
                    idx[k] = 0;
                }
            }
            v = Optional.of(Fold.pick(x.values().get(), pick));
        }
        return List.of(new Inferred(x.type(), os, v));
    }

    /** The first index and the element count of slicing a dimension of size {@code d} (ONNX Slice rules). */
    static long[] sliceDim(long d, long start, long end, long step) {
        if (step > 0) {
            long s = start < 0 ? Math.max(0, start + d) : Math.min(start, d);
            long e = end < 0 ? Math.max(0, end + d) : Math.min(end, d);
            return new long[]{s, e > s ? (e - s - 1) / step + 1 : 0};
        }
        long s = start < 0 ? Math.max(-1, start + d) : Math.min(start, d - 1);
        long e = end < 0 ? Math.max(-1, end + d) : Math.min(end, d - 1);
        if (s <= e) {
            return new long[]{s, 0};
        }
        return new long[]{s, step == Long.MIN_VALUE ? 1 : (s - e - 1) / (-step) + 1};
    }

    private static List<Inferred> expand(Node n) {
        TensorInfo x = n.in(0);
        long[] s = n.ints(1, "shape");
        for (long d : s) {
            if (d < 0) {
                throw n.fail("shape " + Arrays.toString(s) + " has a negative dimension");
            }
        }
        Shape out = Broadcast.shapes(n, x.shape(), Shape.of(s));
        Optional<Values> v = Optional.empty();
        if (Fold.ready(out, List.of(x))) {
            v = Optional.of(Fold.pick(x.values().get(), Broadcast.indexMap(x.shape(), out)));
        }
        return List.of(new Inferred(x.type(), out, v));
    }

    private static List<Inferred> tile(Node n) {
        TensorInfo x = n.in(0);
        long[] rep = n.ints(1, "repeats");
        if (rep.length != x.shape().rank()) {
            throw n.fail("repeats " + Arrays.toString(rep) + " has " + rep.length + " entries for '" + x.name() + "' "
                    + x.shape());
        }
        long[] out = new long[rep.length];
        for (int i = 0; i < rep.length; i++) {
            if (rep[i] < 0) {
                throw n.fail("repeats " + Arrays.toString(rep) + " has a negative entry");
            }
            out[i] = Checked.multiply(x.shape().dim(i), rep[i]);
        }
        return List.of(Inferred.of(x.type(), Shape.of(out)));
    }

    private static List<Inferred> pad(Node n) {
        TensorInfo x = n.in(0);
        int r = x.shape().rank();
        long[] pads;
        if (n.opset() >= 11) {
            pads = n.ints(1, "pads");
        } else {
            pads = n.attrInts(n.opset() < 2 ? "paddings" : "pads").orElseThrow(() -> n.fail("needs attribute 'pads'"));
        }
        long[] axes = new long[r];
        for (int i = 0; i < r; i++) {
            axes[i] = i;
        }
        if (n.opset() >= 18 && n.has(3)) {
            axes = n.ints(3, "axes");
        }
        if (pads.length != 2L * axes.length) {
            throw n.fail("pads " + Arrays.toString(pads) + " should have " + 2 * axes.length + " entries (begin and end "
                    + "for each of " + axes.length + " axes)");
        }
        long[] out = x.shape().dims();
        for (int i = 0; i < axes.length; i++) {
            int ax = n.axis(axes[i], r, "axis");
            long o;
            try {
                o = Math.addExact(Math.addExact(out[ax], pads[i]), pads[i + axes.length]);
            } catch (ArithmeticException e) {
                throw n.fail("pads " + Arrays.toString(pads) + " on dimension " + ax + " overflow 64-bit integers");
            }
            if (o < 0) {
                throw n.fail("pads " + Arrays.toString(pads) + " remove more than dimension " + ax + " of '" + x.name()
                        + "' " + x.shape() + " holds");
            }
            out[ax] = o;
        }
        return List.of(Inferred.of(x.type(), Shape.of(out)));
    }

    private static List<Inferred> constantOfShape(Node n) {
        long[] s = n.ints(0, "shape");
        for (long d : s) {
            if (d < 0) {
                throw n.fail("shape " + Arrays.toString(s) + " has a negative dimension");
            }
        }
        Shape out = Shape.of(s);
        ElementType type = ElementType.FLOAT;
        Optional<Values> fill = Optional.of(Values.ofReals(0));
        if (n.attrTensor("value").isPresent()) {
            TensorInfo v = TensorData.info(n.attrTensor("value").get(), "value", n.label() + " attribute 'value'");
            if (v.shape().elements() != 1) {
                throw n.fail("attribute 'value' must hold one element, it has shape " + v.shape());
            }
            type = v.type();
            fill = v.values();
        }
        Optional<Values> v = Optional.empty();
        if (fill.isPresent() && out.elements() <= Fold.LIMIT) {
            int[] zeros = new int[(int) out.elements()];
            v = Optional.of(Fold.pick(fill.get(), zeros));
        }
        return List.of(new Inferred(type, out, v));
    }

    private static List<Inferred> range(Node n) {
        Values start = n.values(0, "start");
        Values limit = n.values(1, "limit");
        Values delta = n.values(2, "delta");
        if (start.size() != 1 || limit.size() != 1 || delta.size() != 1) {
            throw n.fail("start, limit and delta must be scalars");
        }
        ElementType type = n.in(0).type();
        long count;
        Optional<Values> v = Optional.empty();
        if (start.integral() && limit.integral() && delta.integral()) {
            long a = start.longAt(0);
            long b = limit.longAt(0);
            long dl = delta.longAt(0);
            if (dl == 0) {
                throw n.fail("delta is 0");
            }
            double span = ((double) b - a) / dl;
            count = Math.max(0, (long) Math.ceil(span));
            if (count <= Fold.LIMIT) {
                long[] r = new long[(int) count];
                for (int i = 0; i < r.length; i++) {
                    r[i] = a + i * dl;
                }
                v = Fold.ints(type, r);
            }
        } else {
            double a = start.doubleAt(0);
            double dl = delta.doubleAt(0);
            if (dl == 0) {
                throw n.fail("delta is 0");
            }
            count = Math.max(0, (long) Math.ceil((limit.doubleAt(0) - a) / dl));
            if (count <= Fold.LIMIT) {
                double[] r = new double[(int) count];
                for (int i = 0; i < r.length; i++) {
                    r[i] = Fold.round(type, a + i * dl);
                }
                v = Optional.of(Values.ofReals(r));
            }
        }
        return List.of(new Inferred(type, Shape.of(count), v));
    }

    private static Inferred spaceDepth(Node n, boolean toSpace) {
        TensorInfo x = n.in(0);
        if (x.shape().rank() != 4) {
            throw n.fail("needs a 4-D input, '" + x.name() + "' is " + x.shape());
        }
        long b = n.attrInt("blocksize").orElseThrow(() -> n.fail("needs attribute 'blocksize'"));
        if (b < 1) {
            throw n.fail("blocksize " + b + " must be positive");
        }
        long bb = Checked.multiply(b, b);
        long[] d = x.shape().dims();
        if (toSpace) {
            if (d[1] % bb != 0) {
                throw n.fail("channels " + d[1] + " are not a multiple of blocksize² " + bb);
            }
            return Inferred.of(x.type(), Shape.of(d[0], d[1] / bb, Checked.multiply(d[2], b), Checked.multiply(d[3], b)));
        }
        if (d[2] % b != 0 || d[3] % b != 0) {
            throw n.fail("height and width " + d[2] + "x" + d[3] + " are not multiples of blocksize " + b);
        }
        return Inferred.of(x.type(), Shape.of(d[0], Checked.multiply(d[1], bb), d[2] / b, d[3] / b));
    }

    private static List<Inferred> oneHot(Node n) {
        TensorInfo idx = n.in(0);
        Values depth = n.values(1, "depth");
        if (depth.size() != 1) {
            throw n.fail("depth must hold one value");
        }
        double dd = depth.doubleAt(0);
        if (dd < 1 || dd != Math.floor(dd)) {
            throw n.fail("depth " + dd + " must be a positive whole number");
        }
        int outRank = idx.shape().rank() + 1;
        int axis = n.axis(n.attrInt("axis", -1), outRank, "axis");
        long[] out = new long[outRank];
        for (int j = 0, k = 0; j < outRank; j++) {
            out[j] = j == axis ? (long) dd : idx.shape().dim(k++);
        }
        return List.of(Inferred.of(n.in(2).type(), Shape.of(out)));
    }
}
