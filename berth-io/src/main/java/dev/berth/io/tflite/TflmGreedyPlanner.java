package dev.berth.io.tflite;

import dev.berth.arith.Checked;
import dev.berth.failure.Require;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * TensorFlow Lite Micro's {@code GreedyMemoryPlanner}, reimplemented from its documented
 * algorithm (tflite-micro {@code memory_planner/greedy_memory_planner.cc}; no code taken from it):
 *
 * <ol>
 *   <li>buffers are taken in this order: first every buffer with an offline offset, in the order
 *       they were added, each fixed at its offset; then every other buffer, largest first, and
 *       among buffers of equal size the one added <em>last</em> first (TFLM lists the online
 *       buffers from the back and sorts them with a stable sort, largest first);</li>
 *   <li>the first buffer of that order goes to its offline offset, or to 0;</li>
 *   <li>each later online buffer goes to the lowest offset at which it fits between the buffers
 *       already placed whose lifetimes overlap its own (both intervals inclusive; TFLM's "never
 *       set" -1 counts as a step like any other), in offset order: the gap after the highest end
 *       seen so far up to the next such buffer's offset must hold it, else it goes after the last;</li>
 *   <li>the head ({@code GetMaximumMemorySize}) is the highest offset + size over all buffers.</li>
 * </ol>
 *
 * Sizes are used as given: TFLM's allocator rounds every tensor and scratch size up to 16 before it
 * adds the buffer, which {@link #ofModel} does. Offline buffers are not checked against one another,
 * as TFLM does not check them.
 */
public final class TflmGreedyPlanner {
    /** TFLM's mark for a buffer it plans online. */
    public static final long ONLINE = -1;

    /**
     * The most buffers Berth runs the policy for: it is quadratic (each buffer is compared with every
     * buffer placed before it, as in TFLM), so a model with more is not predicted (see {@link TflmHeadPlan}).
     */
    public static final int MAX_BUFFERS = 1 << 14;

    /**
     * One buffer as TFLM's allocator adds it: bytes, first and last step (inclusive), offline offset
     * or {@link #ONLINE}. A negative {@code size}, a {@code last} step before {@code first}, or an
     * {@code offlineOffset} below {@link #ONLINE}, is {@code invalid-input} naming it.
     */
    public record Buffer(long size, int first, int last, long offlineOffset) {
        public Buffer {
            Require.nonNegative(size, "size");
            if (last < first) {
                throw Require.invalid("last", Integer.toString(last), "a buffer is live from its first "
                        + "step to its last, " + first + " or later, got " + last);
            }
            if (offlineOffset < ONLINE) {
                throw Require.invalid("offlineOffset", Long.toString(offlineOffset), "an offset "
                        + "0..2^63-1, or " + ONLINE + " for a buffer TFLM plans online, got " + offlineOffset);
            }
        }
    }

    /** Every buffer's offset, in the order the buffers were given, and the head. */
    public record Result(long[] offsets, long head) {
        public Result {
            offsets = offsets.clone();
        }

        @Override
        public long[] offsets() {
            return offsets.clone();
        }

        public long offset(int buffer) {
            return offsets[buffer];
        }
    }

    private TflmGreedyPlanner() {
    }

    /**
     * Plans {@code buffers}, given in TFLM's order of {@code AddBuffer} calls; more than
     * {@link #MAX_BUFFERS} is {@code invalid-input} naming {@code buffers}, a null list or element a
     * NullPointerException naming it.
     */
    public static Result plan(List<Buffer> given) {
        List<Buffer> buffers = Require.elements(given, "buffers");
        int n = buffers.size();
        if (n > MAX_BUFFERS) {
            throw Require.invalid("buffers", Integer.toString(n), n + " buffers, more than the "
                    + MAX_BUFFERS + " Berth runs TFLM's quadratic greedy policy for");
        }
        List<Integer> order = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (buffers.get(i).offlineOffset() != ONLINE) {
                order.add(i);
            }
        }
        List<Integer> online = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            if (buffers.get(i).offlineOffset() == ONLINE) {
                online.add(i);
            }
        }
        // stable: equal sizes keep the back-to-front order
        online.sort((a, b) -> Long.compare(buffers.get(b).size(), buffers.get(a).size()));
        order.addAll(online);

        long[] offset = new long[n];
        // the buffers placed so far, by offset
        List<Integer> placed = new ArrayList<>(n);
        List<Integer> overlapping = new ArrayList<>();
        for (int id : order) {
            Buffer want = buffers.get(id);
            long at;
            if (want.offlineOffset() != ONLINE) {
                at = want.offlineOffset();
            } else {
                overlapping.clear();
                for (int p : placed) {
                    Buffer b = buffers.get(p);
                    if (b.first() <= want.last() && want.first() <= b.last()) {
                        overlapping.add(p);
                    }
                }
                at = 0;
                for (int p : overlapping) {
                    if (offset[p] - at >= want.size()) {
                        break;
                    }
                    at = Math.max(at, Checked.add(offset[p], buffers.get(p).size()));
                }
            }
            offset[id] = at;
            insert(placed, id, offset);
        }
        long head = 0;
        for (int i = 0; i < n; i++) {
            head = Math.max(head, Checked.add(offset[i], buffers.get(i).size()));
        }
        return new Result(offset, head);
    }

    /** Into {@code placed}, kept in offset order, after every buffer whose offset is not above {@code id}'s. */
    private static void insert(List<Integer> placed, int id, long[] offset) {
        int lo = 0;
        int hi = placed.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (offset[placed.get(mid)] <= offset[id]) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        placed.add(lo, id);
    }

    /**
     * TFLM's plan of a model's head: where each tensor of {@code view} TFLM plans goes and where its
     * scratch buffers go.
     *
     * @param tensorOffset per entry of {@code view}: the tensor's offset from the head start, or -1
     *                     for a tensor TFLM does not plan (or, in {@link #ofModel}'s input, plans online)
     * @param scratchOffset per scratch buffer, in the order given
     */
    public record ModelPlan(long[] tensorOffset, long[] scratchOffset, long head) {
        public ModelPlan {
            tensorOffset = tensorOffset.clone();
            scratchOffset = scratchOffset.clone();
        }

        @Override
        public long[] tensorOffset() {
            return tensorOffset.clone();
        }

        @Override
        public long[] scratchOffset() {
            return scratchOffset.clone();
        }

        /** The highest end of a tensor: the head of the tensors alone. */
        public long tensorHead(TflmView view) {
            long h = 0;
            for (int i = 0; i < tensorOffset.length; i++) {
                if (tensorOffset[i] >= 0) {
                    h = Math.max(h, Checked.add(tensorOffset[i], roundUp16(view.entries().get(i).bytes())));
                }
            }
            return h;
        }
    }

    /**
     * What TFLM's allocator plans for a model: the buffers it adds (every tensor it plans, in the
     * order of {@code view}, then every scratch buffer), each rounded up to 16 bytes, with TFLM's own
     * lifetimes, planned by TFLM's greedy policy.
     *
     * @param offline per entry of {@code view}, the offline plan's offset or -1; {@code null}: no
     *                offline plan (TFLM plans every tensor online). Which tensors TFLM plans follows
     *                TFLM's rule for the given plan: not constant, bytes &gt; 0, and not variable
     *                unless the plan gives it an offset. Another length than {@code view}'s entries is
     *                {@code invalid-input} naming {@code offline}.
     */
    public static ModelPlan ofModel(TflmView view, int[] offline, List<TflmScratch> scratch) {
        List<TflmView.Entry> entries = Require.nonNull(view, "view").entries();
        Require.elements(scratch, "scratch");
        if (offline != null && offline.length != entries.size()) {
            throw Require.invalid("offline", Integer.toString(offline.length), offline.length
                    + " offsets, but the model has " + entries.size() + " tensors; an offline plan has one per tensor");
        }
        List<Buffer> buffers = new ArrayList<>();
        int[] bufferOf = new int[entries.size()];
        Arrays.fill(bufferOf, -1);
        for (int i = 0; i < entries.size(); i++) {
            TflmView.Entry e = entries.get(i);
            long off = offline == null ? ONLINE : offline[i];
            if (plans(e, off)) {
                bufferOf[i] = buffers.size();
                buffers.add(new Buffer(roundUp16(e.bytes()), e.firstUsed(), e.lastUsed(), off < 0 ? ONLINE : off));
            }
        }
        int firstScratch = buffers.size();
        for (TflmScratch s : scratch) {
            buffers.add(new Buffer(roundUp16(s.size()), s.first(), s.last(), ONLINE));
        }
        Result r = plan(buffers);
        long[] tensors = new long[entries.size()];
        for (int i = 0; i < tensors.length; i++) {
            tensors[i] = bufferOf[i] < 0 ? -1 : r.offset(bufferOf[i]);
        }
        long[] scratchAt = new long[scratch.size()];
        for (int k = 0; k < scratchAt.length; k++) {
            scratchAt[k] = r.offset(firstScratch + k);
        }
        return new ModelPlan(tensors, scratchAt, r.head());
    }

    /** How many buffers TFLM plans online for {@code view} with no offline plan and {@code scratch}. */
    public static long bufferCount(TflmView view, List<TflmScratch> scratch) {
        return view.entries().stream().filter(e -> plans(e, ONLINE)).count() + scratch.size();
    }

    /** TFLM's {@code needs_allocating} under an offline plan that gives the tensor {@code offline} (or -1). */
    static boolean plans(TflmView.Entry e, long offline) {
        return !e.constant() && e.bytes() > 0 && (!e.variable() || offline >= 0);
    }

    static long roundUp16(long bytes) {
        return Checked.alignUp(bytes, 16);
    }
}
