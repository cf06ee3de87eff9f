package dev.berth.io.tflite;

import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Require;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * TensorFlow Lite Micro's view of a model's tensors, computed as TFLM computes it:
 *
 * <ul>
 *   <li><b>bytes</b>: elements of the stored shape (1 for a scalar) × the element size of
 *       TFLM's {@code TfLiteTypeSizeOf}; string, resource and variant tensors have no fixed size
 *       and are {@code invalid-input}, as are types TFLM has no size for;</li>
 *   <li><b>constant</b>: the tensor's buffer holds data (TFLM reads it in place);</li>
 *   <li><b>planned</b> (TFLM's {@code needs_allocating}): not constant, not variable, bytes &gt; 0;
 *       or a variable tensor given an offset by an offline plan already in the file;</li>
 *   <li><b>first / last use</b> (TFLM's {@code AllocationInfoBuilder}): one step counter over the
 *       whole model, starting at 0 in subgraph 0. Entering a subgraph, its inputs are created and
 *       used at the current step; each operator advances the counter, its outputs are created, the
 *       subgraphs it runs (IF then, else; WHILE cond, body; CALL_ONCE init) are walked, each after
 *       one more advance, then its inputs and outputs are used at the current step; at the end the
 *       subgraph's outputs are created (if not yet) and used at the current step. A subgraph run
 *       twice is walked twice: it keeps the first creation and the last use. -1 = never set;
 *       intervals are inclusive.</li>
 * </ul>
 *
 * Operators with intermediate tensors of non-zero size are refused as TFLM refuses them.
 */
public final class TflmView {
    /** TFLM's mark for a lifetime never set. */
    public static final int UNSET = -1;

    /** One tensor as TFLM sees it. */
    public record Entry(int subgraph, int index, String name, int type, int[] shape, long bytes, boolean constant,
                        boolean variable, boolean planned, int firstUsed, int lastUsed, int offlineOffset) {
        public Entry {
            shape = shape.clone();
        }

        /** The end of the bytes the file's offline plan gives it: its offset plus its size rounded up to 16, as TFLM rounds. */
        public long offlineEnd() {
            return offlineOffset + (bytes + 15) / 16 * 16;
        }

        /** {@code t12} in subgraph 0, {@code s1.t12} in another. */
        public String label() {
            return subgraph == 0 ? "t" + index : "s" + subgraph + ".t" + index;
        }

        public String typeName() {
            return TfliteTypes.name(type);
        }
    }

    private final List<Entry> entries;
    private final int steps;
    private final int[][] opFirst;
    private final int[][] opLast;

    private TflmView(List<Entry> entries, int steps, int[][] opFirst, int[][] opLast) {
        this.entries = List.copyOf(entries);
        this.steps = steps;
        this.opFirst = opFirst;
        this.opLast = opLast;
    }

    /** Two tensors an offline plan puts at overlapping bytes although TFLM's lifetimes say both are live at a step. */
    public record Overlap(Entry a, Entry b) {
    }

    /**
     * The pairs of planned tensors whose offsets in the file's offline plan (each rounded up to
     * 16 bytes, as TFLM rounds them) overlap while both are live, in offset order; at most
     * {@code limit} of them. TFLM accepts such a plan: it checks only the number of offsets.
     */
    public List<Overlap> offlineOverlaps(int limit) {
        List<Entry> placed = new ArrayList<>();
        for (Entry e : entries) {
            if (e.planned() && e.offlineOffset() >= 0 && e.bytes() > 0) {
                placed.add(e);
            }
        }
        placed.sort(Comparator.comparingLong((Entry e) -> e.offlineOffset())
                .thenComparingInt(Entry::subgraph).thenComparingInt(Entry::index));
        List<Overlap> out = new ArrayList<>();
        for (int i = 0; i < placed.size() && out.size() < limit; i++) {
            Entry a = placed.get(i);
            long end = a.offlineEnd();
            for (int j = i + 1; j < placed.size() && placed.get(j).offlineOffset() < end && out.size() < limit; j++) {
                Entry b = placed.get(j);
                if (a.firstUsed() <= b.lastUsed() && b.firstUsed() <= a.lastUsed()) {
                    out.add(new Overlap(a, b));
                }
            }
        }
        return out;
    }

    /** Every tensor of every subgraph, in the order TFLM's offline plan indexes them. */
    public List<Entry> entries() {
        return entries;
    }

    /**
     * The steps a kernel's scratch buffer requested in the {@code Prepare} of operator {@code op} of
     * {@code subgraph} lives over, as TFLM marks them: from the operator's step to the step after the
     * subgraphs it runs (its own step for an operator without control flow); an operator run twice
     * keeps its first and its last; {@code {UNSET, UNSET}} for one of a subgraph nothing runs.
     */
    public int[] scratchSteps(int subgraph, int op) {
        return new int[] {opFirst[subgraph][op], opLast[subgraph][op]};
    }

    /** The step counter's value at the end of TFLM's walk (the last step). */
    public int lastStep() {
        return steps;
    }

    /** Computes TFLM's view; {@code what} names the file in messages. */
    public static TflmView of(TfliteModel m, String what) {
        int[] offline = offlineOffsets(m, what);
        int[] base = new int[m.subgraphs().size()];
        int total = 0;
        for (TfliteModel.Subgraph g : m.subgraphs()) {
            base[g.index()] = total;
            total += g.tensors().size();
        }
        long[] bytes = new long[total];
        boolean[] constant = new boolean[total];
        for (TfliteModel.Subgraph g : m.subgraphs()) {
            for (TfliteModel.Tensor t : g.tensors()) {
                int k = base[g.index()] + t.index();
                bytes[k] = bytes(t, g.index(), what);
                constant[k] = m.bufferBytes()[(int) t.buffer()] > 0;
            }
            for (TfliteModel.Operator op : g.operators()) {
                for (int i : op.intermediates()) {
                    if (bytes[base[g.index()] + i] != 0) {
                        TfliteModel.Tensor t = g.tensors().get(i);
                        throw Require.invalid(what, "subgraph " + g.index() + " operator " + op.index() + " ("
                                + op.opName() + ") has intermediate tensor " + i + " (" + t.label() + ") of "
                                + bytes[base[g.index()] + i]
                                + " bytes; TFLM supports only intermediate tensors of size 0");
                    }
                }
            }
        }
        int[] first = new int[total];
        int[] last = new int[total];
        Arrays.fill(first, UNSET);
        Arrays.fill(last, UNSET);
        int[][] opFirst = new int[m.subgraphs().size()][];
        int[][] opLast = new int[m.subgraphs().size()][];
        for (TfliteModel.Subgraph g : m.subgraphs()) {
            opFirst[g.index()] = new int[g.operators().size()];
            opLast[g.index()] = new int[g.operators().size()];
            Arrays.fill(opFirst[g.index()], UNSET);
            Arrays.fill(opLast[g.index()], UNSET);
        }
        int end = walk(m, base, first, last, opFirst, opLast);
        List<Entry> out = new ArrayList<>(total);
        for (TfliteModel.Subgraph g : m.subgraphs()) {
            for (TfliteModel.Tensor t : g.tensors()) {
                int k = base[g.index()] + t.index();
                int off = offline == null ? UNSET : offline[k];
                boolean planned = !constant[k] && !t.variable() && bytes[k] != 0;
                if (t.variable() && off != UNSET) {
                    planned = true;
                }
                out.add(new Entry(g.index(), t.index(), t.name(), t.type(), t.shape(), bytes[k], constant[k],
                        t.variable(), planned, first[k], last[k], off));
            }
        }
        return new TflmView(out, end, opFirst, opLast);
    }

    private static long bytes(TfliteModel.Tensor t, int subgraph, String what) {
        String who = "tensor " + t.index() + (t.name().isEmpty() ? "" : " (" + t.name() + ")")
                + (subgraph == 0 ? "" : " of subgraph " + subgraph);
        int size = TfliteTypes.elementSize(t.type());
        if (size < 0) {
            String type = TfliteTypes.name(t.type());
            boolean noFixed = t.type() == 5 || t.type() == 13 || t.type() == 14;
            throw Require.invalid(what, who + " has type " + type + (noFixed
                    ? ", which has no fixed size: Berth cannot plan its bytes"
                    : ", for which TFLM has no element size"));
        }
        long n = 1;
        try {
            for (int d : t.shape()) {
                if (d < 0) {
                    throw Require.invalid(what, who + " has dimension " + d + " in its shape "
                            + Arrays.toString(t.shape()) + "; a stored shape has no negative dimension");
                }
                n = Checked.multiply(n, d);
            }
            return Checked.multiply(n, size);
        } catch (BerthException e) {
            if (e.category() != Category.ARITHMETIC_OVERFLOW) {
                throw e;
            }
            throw Require.invalid(what, who + " of shape " + Arrays.toString(t.shape())
                    + " would take more than 2^63-1 bytes");
        }
    }

    /** The offsets of an offline plan already in the file, checked as TFLM reads them, or null. */
    private static int[] offlineOffsets(TfliteModel m, String what) {
        if (m.offlinePlan().isEmpty()) {
            return null;
        }
        int[] w = m.offlinePlan().get();
        int tensors = m.tensorCount();
        String entry = what + ": the " + TfliteModel.OFFLINE_PLAN + " metadata entry";
        if (w.length < 3) {
            throw BerthException.invalid(what, entry + " has " + (w.length * 4) + " bytes, fewer than its 12-byte header "
                    + "[version, subgraphs, tensors]");
        }
        if (w[2] != tensors) {
            throw BerthException.invalid(what, entry + " gives " + Integer.toUnsignedString(w[2])
                    + " offsets, but the model has " + tensors + " tensors (TFLM refuses this)");
        }
        if (w.length - 3 < tensors) {
            throw BerthException.invalid(what, entry + " announces " + tensors + " offsets but holds "
                    + (w.length - 3));
        }
        return Arrays.copyOfRange(w, 3, 3 + tensors);
    }

    /** TFLM's lifetime walk from subgraph 0; returns the final step. Iterative: no Java recursion. */
    private static int walk(TfliteModel m, int[] base, int[] first, int[] last, int[][] opFirst, int[][] opLast) {
        int[] count = {0};
        // frames: {subgraph, next operator, phase (0 = before the operator's calls, then call position + 1)}
        ArrayDeque<int[]> stack = new ArrayDeque<>();
        enter(m, 0, base, first, last, count, stack);
        while (!stack.isEmpty()) {
            int[] f = stack.peek();
            TfliteModel.Subgraph g = m.subgraphs().get(f[0]);
            int b = base[f[0]];
            if (f[1] >= g.operators().size()) {
                for (int t : g.outputs()) {
                    create(first, b + t, count[0]);
                    last[b + t] = count[0];
                }
                stack.pop();
                continue;
            }
            TfliteModel.Operator op = g.operators().get(f[1]);
            if (f[2] == 0) {
                count[0]++;
                for (int t : op.outputs()) {
                    create(first, b + t, count[0]);
                }
                create(opFirst[f[0]], f[1], count[0]);
                f[2] = 1;
            }
            int call = f[2] - 1;
            if (call < op.calls().length) {
                f[2]++;
                count[0]++;
                enter(m, op.calls()[call], base, first, last, count, stack);
                continue;
            }
            for (int t : op.inputs()) {
                if (t >= 0) {
                    last[b + t] = count[0];
                }
            }
            for (int t : op.outputs()) {
                last[b + t] = count[0];
            }
            opLast[f[0]][f[1]] = count[0];
            f[1]++;
            f[2] = 0;
        }
        return count[0];
    }

    private static void enter(TfliteModel m, int subgraph, int[] base, int[] first, int[] last, int[] count,
                              ArrayDeque<int[]> stack) {
        int b = base[subgraph];
        for (int t : m.subgraphs().get(subgraph).inputs()) {
            create(first, b + t, count[0]);
            last[b + t] = count[0];
        }
        stack.push(new int[] {subgraph, 0, 0});
    }

    private static void create(int[] first, int k, int step) {
        if (first[k] == UNSET) {
            first[k] = step;
        }
    }
}
