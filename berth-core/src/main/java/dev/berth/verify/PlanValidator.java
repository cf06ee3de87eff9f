package dev.berth.verify;

import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.workload.Operator;
import dev.berth.workload.Origin;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Re-checks a plan from scratch before it is written. It shares no code with the planners
 * or the admission check: address and capacity rules are re-derived here in long arithmetic
 * arranged so that no comparison overflows, overlaps are found by a sweep over steps with a
 * Fenwick tree of live offsets, and the metrics are recomputed (over unbounded integers only
 * when a sum passes 2^63-1) and compared. Per reservation it allocates nothing; a space's
 * sweeps work on arrays of packed longs. Tiles and descriptors are re-derived from the
 * contract's rule ({@link #checkDescriptors}): each tiled tensor's descriptors, one per tile,
 * each at its tile's address with its bytes, and the descriptor table sized for them.
 */
public final class PlanValidator {

    private final Plan plan;
    private final List<Verdict.Violation> out = new ArrayList<>();
    private long checks;
    /**
     * With an operator order, per reservation (artifact position) the first step its own bytes
     * are live: its first step, or the one after it for a sound pair's output, whose bytes are its
     * input's at its first step ({@link #checkOrder}); null without an order.
     */
    private int[] from;

    private PlanValidator(Plan plan) {
        this.plan = plan;
    }

    public static Verdict validate(Plan plan) {
        Objects.requireNonNull(plan, "plan");
        PlanValidator v = new PlanValidator(plan);
        v.run();
        return v.out.isEmpty() ? new Verdict.Valid(v.checks) : new Verdict.Invalid(v.out);
    }

    private void fail(Verdict.Kind kind, String detail) {
        out.add(new Verdict.Violation(kind, detail));
    }

    private void run() {
        Map<String, Space> spaces = plan.target().spaces();
        for (String s : plan.spaces().keySet()) {
            if (!spaces.containsKey(s)) {
                fail(Verdict.Kind.UNKNOWN_SPACE, "metrics for space " + s + ", which the target does not have");
            }
        }
        plan.order().ifPresent(this::checkOrder);
        Set<String> names = new HashSet<>();
        Map<String, Indices> bySpace = new HashMap<>();
        List<PlannedBuffer> all = plan.buffers();
        for (int i = 0; i < all.size(); i++) {
            PlannedBuffer b = all.get(i);
            checks++;
            if (!names.add(b.name())) {
                fail(Verdict.Kind.DUPLICATE_NAME, "two reservations are named " + b.name());
            }
            Space sp = spaces.get(b.space());
            if (sp == null) {
                fail(Verdict.Kind.UNKNOWN_SPACE, b.name() + " is in space " + b.space() + ", which the target does not have");
                continue;
            }
            checkOne(b, sp);
            bySpace.computeIfAbsent(b.space(), k -> new Indices()).add(i);
        }
        for (Space sp : spaces.values()) {
            Indices in = bySpace.getOrDefault(sp.name(), new Indices());
            checkOverlaps(sp, in.toArray());
            checkMetrics(sp, in.toArray());
        }
        checkDescriptors();
    }

    /** The positions in {@code plan.buffers()} of one space's reservations, in artifact order. */
    private static final class Indices {
        private int[] a = new int[16];
        private int n;

        void add(int i) {
            if (n == a.length) {
                a = Arrays.copyOf(a, 2 * n);
            }
            a[n++] = i;
        }

        int[] toArray() {
            return Arrays.copyOf(a, n);
        }
    }

    /**
     * The rules of one reservation, in long arithmetic that compares without overflowing: each
     * test is arranged so that its operands stay in range for the values the earlier tests let
     * through ({@link BigInteger} only spells out a failure's numbers).
     */
    private void checkOne(PlannedBuffer b, Space sp) {
        long off = b.offset();
        long req = b.requested();
        long res = b.reserved();
        long al = b.alignment();
        if (off < 0 || req < 0 || res < req || al < 1) {
            fail(Verdict.Kind.BAD_SIZE, b.name() + ": offset " + off + ", requested " + req + ", reserved " + res
                    + ", alignment " + al);
            return;
        }
        if (b.origin() == Origin.FIXED) {
            if (res != req) {
                fail(Verdict.Kind.BAD_SIZE, "fixed region " + b.name() + " reserves " + res + " for " + req
                        + " bytes: fixed regions are exact");
            }
        } else {
            if (off % al != 0 || res % al != 0 || al % sp.alignment() != 0) {
                fail(Verdict.Kind.MISALIGNED, b.name() + ": offset " + off + " and reserved " + res
                        + " must be multiples of alignment " + al + ", itself a multiple of space " + sp.name()
                        + "'s alignment " + sp.alignment());
            }
            // the least multiple of al at least req: res is it when it is a multiple within al of req
            if (res % al != 0 || res - req >= al) {
                BigInteger alignment = BigInteger.valueOf(al);
                BigInteger least = BigInteger.valueOf(req).add(alignment).subtract(BigInteger.ONE).divide(alignment)
                        .multiply(alignment);
                fail(Verdict.Kind.BAD_SIZE, b.name() + ": " + req + " bytes at alignment " + al + " reserve " + least
                        + ", not " + res);
            }
        }
        // base and offset are at least 0: their sum passes 2^63-1, past every maxAddress, or is exact
        long base = sp.base();
        if (off > Long.MAX_VALUE - base || !encodable(sp.format(), base + off, res)) {
            fail(Verdict.Kind.NOT_ENCODABLE, b.name() + ": [" + BigInteger.valueOf(base).add(BigInteger.valueOf(off))
                    + ", +" + res + ") is not encodable in " + sp.format().describe());
        }
        if (sp.capacity().isPresent()) {
            // the target keeps runtimeReserve within capacity, both at least 0
            long cap = sp.capacity().getAsLong() - sp.runtimeReserve();
            if (off > cap || res > cap - off) {
                fail(Verdict.Kind.OVER_CAPACITY, b.name() + ": ends at " + BigInteger.valueOf(off).add(
                        BigInteger.valueOf(res)) + ", past the usable capacity " + cap + " of space " + sp.name());
            }
        }
    }

    /**
     * Contract §3 for {@code bytes >= 0} bytes at any {@code start}: {@code start + bytes} (exclusive
     * end) or {@code start + bytes - 1} (last byte) at most {@code maxAddress}, and {@code start} at
     * most it. With {@code maxAddress >= 0} neither subtraction below overflows.
     */
    private static boolean encodable(AddressFormat f, long start, long bytes) {
        long past = f.end() == EndConvention.EXCLUSIVE ? bytes : Math.max(0, bytes - 1);
        return start <= f.maxAddress() - past;
    }

    /**
     * The operator order of a version 4 plan, re-derived from the order alone (contract §5.3):
     * operators named once; every name read or written a tensor of the plan, each written by one
     * operator, none read at or before the step of its writer; each tensor live at least from its
     * writer's step (step 0 for one nobody writes) to its last reader's. A tensor written over an
     * input ({@code sharesWith}) must be written by an operator that reads the input, at the step
     * where the input dies: no operator reads it later and its steps end there, the output's begin
     * there; the two share a space and an offset, the output fits in the input, and an input hosts
     * one output. A sound pair's output counts from the next step in the sweeps ({@link #from}):
     * at its first step its bytes are its input's, checked through the input.
     */
    private void checkOrder(List<Operator> order) {
        List<PlannedBuffer> all = plan.buffers();
        Map<String, Integer> tensor = new HashMap<>();
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).origin() == Origin.TENSOR) {
                tensor.putIfAbsent(all.get(i).name(), i);
            }
        }
        Map<String, Integer> writtenAt = new HashMap<>();
        Map<String, Integer> lastRead = new HashMap<>();
        Set<String> operators = new HashSet<>();
        for (int s = 0; s < order.size(); s++) {
            Operator op = order.get(s);
            checks++;
            if (!operators.add(op.name())) {
                fail(Verdict.Kind.BAD_ORDER, "order[" + s + "]: operator " + op.name() + " is in the order twice");
            }
            for (String w : op.writes()) {
                Integer before = tensor.containsKey(w) ? writtenAt.putIfAbsent(w, s) : null;
                if (!tensor.containsKey(w)) {
                    fail(Verdict.Kind.BAD_ORDER, "order[" + s + "]: " + op.name() + " writes " + w + ", which is no "
                            + "tensor of the plan");
                } else if (before != null && before != s) {
                    fail(Verdict.Kind.BAD_ORDER, w + " is written at step " + before + " and again at step " + s + " by "
                            + op.name() + ": a tensor has one writer");
                }
            }
            for (String r : op.reads()) {
                if (tensor.containsKey(r)) {
                    lastRead.put(r, s);
                } else {
                    fail(Verdict.Kind.BAD_ORDER, "order[" + s + "]: " + op.name() + " reads " + r + ", which is no "
                            + "tensor of the plan");
                }
            }
        }
        for (int s = 0; s < order.size(); s++) {
            for (String r : order.get(s).reads()) {
                Integer w = writtenAt.get(r);
                if (w != null && w >= s) {
                    fail(Verdict.Kind.BAD_ORDER, "order[" + s + "]: " + order.get(s).name() + " reads " + r + " at step "
                            + s + ", but it is written at step " + w);
                }
            }
        }
        Set<String> touched = new LinkedHashSet<>(writtenAt.keySet());
        touched.addAll(lastRead.keySet());
        for (String t : touched) {
            PlannedBuffer b = all.get(tensor.get(t));
            int first = writtenAt.getOrDefault(t, 0);
            int last = Math.max(first, lastRead.getOrDefault(t, first));
            if (b.live().first() > first || b.live().last() < last) {
                fail(Verdict.Kind.BAD_ORDER, t + " is live over steps " + b.live() + ", but the order needs it over ["
                        + first + ", " + last + "] (from " + (writtenAt.containsKey(t) ? "its writer" : "the start")
                        + " to its last reader)");
            }
        }
        from = new int[all.size()];
        Set<String> hosts = new HashSet<>();
        for (int i = 0; i < all.size(); i++) {
            PlannedBuffer b = all.get(i);
            from[i] = b.live().first();
            if (b.sharesWith().isEmpty()) {
                continue;
            }
            checks++;
            String in = b.sharesWith().get();
            Integer j = tensor.get(in);
            Integer s = writtenAt.get(b.name());
            String why;
            if (b.origin() != Origin.TENSOR || j == null || j == i) {
                why = j == null ? in + " is no tensor of the plan" : "only a tensor is written over another tensor";
            } else if (!all.get(j).space().equals(b.space())) {
                why = b.name() + " is in space " + b.space() + ", " + in + " in " + all.get(j).space();
            } else if (!hosts.add(in)) {
                why = in + " hosts another output already";
            } else if (s == null) {
                why = b.name() + " is written by no operator of the order";
            } else if (!order.get(s).reads().contains(in)) {
                why = order.get(s).name() + " writes " + b.name() + " at step " + s + " but does not read " + in
                        + ": a pair is an output and an input of one operator";
            } else if (lastRead.get(in) > s) {
                why = in + " is read at step " + lastRead.get(in) + ", after " + b.name() + " is written over it at step "
                        + s + ": it does not die there";
            } else if (all.get(j).live().last() != s) {
                why = in + " is live over steps " + all.get(j).live() + ": after step " + s + ", where " + b.name()
                        + " is written over it";
            } else if (b.live().first() != s) {
                why = b.name() + " is live from step " + b.live().first() + ", not from its writer's step " + s;
            } else if (b.offset() != all.get(j).offset() || b.reserved() > all.get(j).reserved()) {
                why = b.name() + " [" + b.offset() + ", +" + b.reserved() + ") and " + in + " [" + all.get(j).offset()
                        + ", +" + all.get(j).reserved() + "): a pair begins at one offset, the output within the input";
            } else {
                from[i] = s + 1;
                continue;
            }
            fail(Verdict.Kind.BAD_SHARE, b.name() + " shares with " + in + ": " + why);
        }
    }

    /** The first step the own bytes of reservation {@code i} (artifact position) are live ({@link #from}). */
    private int from(int i) {
        return from == null ? plan.buffers().get(i).live().first() : from[i];
    }

    /**
     * Sweep over steps; live reservations ordered by offset never overlap, so neighbours suffice.
     * Reservations with bytes are taken by first step (then artifact order); before each, those
     * whose last step has passed leave (a second array sorted by last step); the live ones are
     * kept by offset in a Fenwick tree over the plan's distinct offsets, which answers the
     * neighbour below (at or under the offset) and above. O(n log n), on arrays.
     */
    private void checkOverlaps(Space sp, int[] list) {
        List<PlannedBuffer> all = plan.buffers();
        int n = 0;
        long[] starts = new long[list.length];
        long[] ends = new long[list.length];
        for (int q = 0; q < list.length; q++) {
            PlannedBuffer b = all.get(list[q]);
            int first = from(list[q]);
            if (b.reserved() > 0 && first <= b.live().last()) {
                // the step (0..2^31-1) in the high half, then the position in this space's list
                starts[n] = ((long) first << 32) | q;
                ends[n++] = ((long) b.live().last() << 32) | q;
            }
        }
        starts = Arrays.copyOf(starts, n);
        ends = Arrays.copyOf(ends, n);
        Arrays.sort(starts);
        Arrays.sort(ends);
        long[] keys = new long[n];
        for (int k = 0; k < n; k++) {
            keys[k] = all.get(list[(int) starts[k]]).offset();
        }
        Arrays.sort(keys);
        int distinct = 0;
        for (int k = 0; k < n; k++) {
            if (k == 0 || keys[k] != keys[k - 1]) {
                keys[distinct++] = keys[k];
            }
        }
        OffsetSet live = new OffsetSet(Arrays.copyOf(keys, distinct));
        int e = 0;
        for (int k = 0; k < n; k++) {
            PlannedBuffer b = all.get(list[(int) starts[k]]);
            checks++;
            // b's own last step is at least its first, so this stops at b's entry at the latest
            while (ends[e] >>> 32 < starts[k] >>> 32) {
                int gone = (int) ends[e++];
                live.remove(all.get(list[gone]).offset(), gone);
            }
            int slot = live.slot(b.offset());
            int below = live.atOrBelow(slot);
            int above = live.above(slot);
            boolean clash = false;
            if (below >= 0 && overlap(all.get(list[below]), b)) {
                clash = report(sp, all.get(list[below]), b);
            }
            if (above >= 0 && overlap(all.get(list[above]), b)) {
                clash = report(sp, all.get(list[above]), b);
            }
            if (!clash) {
                live.put(slot, (int) starts[k]);
            }
        }
    }

    /**
     * The live reservations of a sweep by offset: at most one per offset (a second one at an
     * occupied offset overlaps the first and is never added). Slots are the sorted distinct
     * offsets; a Fenwick tree counts the occupied ones.
     */
    private static final class OffsetSet {
        private final long[] offsets;
        private final int[] tree;
        private final int[] who;
        private final int top;
        private int size;

        OffsetSet(long[] offsets) {
            this.offsets = offsets;
            tree = new int[offsets.length + 1];
            who = new int[offsets.length];
            Arrays.fill(who, -1);
            top = Integer.highestOneBit(Math.max(1, offsets.length));
        }

        int slot(long offset) {
            return Arrays.binarySearch(offsets, offset);
        }

        void put(int slot, int q) {
            who[slot] = q;
            size++;
            for (int i = slot + 1; i < tree.length; i += i & -i) {
                tree[i]++;
            }
        }

        /** Removes reservation {@code q} at {@code offset}, if it is the one there. */
        void remove(long offset, int q) {
            int slot = slot(offset);
            if (who[slot] != q) {
                return;
            }
            who[slot] = -1;
            size--;
            for (int i = slot + 1; i < tree.length; i += i & -i) {
                tree[i]--;
            }
        }

        /** How many occupied slots are at or below {@code slot}. */
        private int count(int slot) {
            int c = 0;
            for (int i = slot + 1; i > 0; i -= i & -i) {
                c += tree[i];
            }
            return c;
        }

        /** The slot of the {@code k}-th occupied one (from 1). */
        private int kth(int k) {
            int pos = 0;
            for (int step = top; step > 0; step >>= 1) {
                int next = pos + step;
                if (next < tree.length && tree[next] < k) {
                    pos = next;
                    k -= tree[next];
                }
            }
            return pos;
        }

        /** The reservation at the highest occupied slot at or below {@code slot}, or -1. */
        int atOrBelow(int slot) {
            int c = count(slot);
            return c == 0 ? -1 : who[kth(c)];
        }

        /** The reservation at the lowest occupied slot above {@code slot}, or -1. */
        int above(int slot) {
            int c = count(slot);
            return c == size ? -1 : who[kth(c + 1)];
        }
    }

    /** Two reservations with bytes share one: each starts before the other ends. */
    private static boolean overlap(PlannedBuffer a, PlannedBuffer b) {
        return startsBeforeEnd(a.offset(), b.offset(), b.reserved()) && startsBeforeEnd(b.offset(), a.offset(), a.reserved());
    }

    /** {@code x < y + bytes} over unbounded integers, for {@code bytes > 0}: a sum past 2^63-1 is past every x. */
    private static boolean startsBeforeEnd(long x, long y, long bytes) {
        return y > Long.MAX_VALUE - bytes || x < y + bytes;
    }

    private boolean report(Space sp, PlannedBuffer a, PlannedBuffer b) {
        fail(Verdict.Kind.OVERLAP, "in space " + sp.name() + ", " + a.name() + " [" + a.offset() + ", +" + a.reserved()
                + ") steps " + a.live() + " overlaps " + b.name() + " [" + b.offset() + ", +" + b.reserved() + ") steps "
                + b.live());
        return true;
    }

    private void checkMetrics(Space sp, int[] list) {
        SpaceMetrics m = plan.spaces().get(sp.name());
        if (m == null) {
            fail(Verdict.Kind.SPACE_MISMATCH, "space " + sp.name() + " has no metrics in the plan");
            return;
        }
        checks++;
        if (!m.kind().equals(sp.kind())) {
            fail(Verdict.Kind.SPACE_MISMATCH, "space " + sp.name() + " is " + sp.kind() + " in the target, " + m.kind()
                    + " in the plan");
        }
        if (!m.capacity().equals(sp.capacity())) {
            fail(Verdict.Kind.SPACE_MISMATCH, "space " + sp.name() + ": capacity " + capacityText(m.capacity())
                    + " in the plan, " + capacityText(sp.capacity()) + " in the target");
        }
        BigInteger[] measured;
        try {
            measured = measureExactly(list);
        } catch (ArithmeticException e) {
            // a sum past the range of long: the same sweep over unbounded integers
            measured = measure(list);
        }
        BigInteger high = measured[0];
        BigInteger gen = measured[1];
        BigInteger peak = measured[2];
        long peakStep = measured[3].longValueExact();
        compare(sp, "highWater", m.highWater(), high);
        compare(sp, "peakLive", m.peakLive(), peak);
        compare(sp, "peakStep", m.peakStep(), BigInteger.valueOf(peakStep));
        compare(sp, "generationOverhead", m.generationOverhead(), gen);
        compare(sp, "runtimeReserve", m.runtimeReserve(), BigInteger.valueOf(sp.runtimeReserve()));
        if (m.optimality().isPresent()) {
            checkOptimality(sp, m.optimality().get(), high, peak);
        }
    }

    /**
     * The high-water mark, generation overhead, peak of live bytes and its step of one space's
     * reservations, in long arithmetic that throws {@link ArithmeticException} on overflow. The
     * peak is taken after all the starts and ends of a step (the first step with the most bytes).
     */
    private BigInteger[] measureExactly(int[] list) {
        List<PlannedBuffer> all = plan.buffers();
        int n = list.length;
        long high = 0;
        long gen = 0;
        long[] starts = new long[n];
        long[] ends = new long[n];
        int counted = 0;
        for (int q = 0; q < n; q++) {
            PlannedBuffer b = all.get(list[q]);
            high = Math.max(high, Math.addExact(b.offset(), b.reserved()));
            if (b.origin() == Origin.DESCRIPTOR_TABLE || b.origin() == Origin.INSTRUCTIONS) {
                gen = Math.addExact(gen, b.reserved());
            }
            int first = from(list[q]);
            if (first <= b.live().last()) {
                // steps are 0..2^31-1: the step in the high half, the position in the low
                starts[counted] = ((long) first << 32) | q;
                ends[counted++] = ((long) b.live().last() << 32) | q;
            }
        }
        n = counted;
        starts = Arrays.copyOf(starts, n);
        ends = Arrays.copyOf(ends, n);
        Arrays.sort(starts);
        Arrays.sort(ends);
        long liveNow = 0;
        long peak = 0;
        long peakStep = -1;
        int s = 0;
        int e = 0;
        // each reservation ends after it starts: the last end comes after every start
        while (e < n) {
            long startStep = s < n ? starts[s] >>> 32 : Long.MAX_VALUE;
            long step = Math.min(startStep, (ends[e] >>> 32) + 1);
            while (s < n && (starts[s] >>> 32) == step) {
                liveNow = Math.addExact(liveNow, all.get(list[(int) starts[s++]]).reserved());
            }
            while (e < n && (ends[e] >>> 32) + 1 == step) {
                liveNow = Math.subtractExact(liveNow, all.get(list[(int) ends[e++]]).reserved());
            }
            if (liveNow > peak) {
                peak = liveNow;
                peakStep = step;
            }
        }
        return new BigInteger[]{BigInteger.valueOf(high), BigInteger.valueOf(gen), BigInteger.valueOf(peak),
                BigInteger.valueOf(peakStep)};
    }

    /** As {@link #measureExactly}, over unbounded integers. */
    private BigInteger[] measure(int[] list) {
        List<PlannedBuffer> all = plan.buffers();
        BigInteger high = BigInteger.ZERO;
        BigInteger gen = BigInteger.ZERO;
        long[] steps = new long[2 * list.length];
        BigInteger[] deltas = new BigInteger[2 * list.length];
        int k = 0;
        for (int q : list) {
            PlannedBuffer b = all.get(q);
            high = high.max(BigInteger.valueOf(b.offset()).add(BigInteger.valueOf(b.reserved())));
            if (b.origin() == Origin.DESCRIPTOR_TABLE || b.origin() == Origin.INSTRUCTIONS) {
                gen = gen.add(BigInteger.valueOf(b.reserved()));
            }
            if (from(q) > b.live().last()) {
                continue;
            }
            steps[k] = from(q);
            deltas[k++] = BigInteger.valueOf(b.reserved());
            steps[k] = (long) b.live().last() + 1;
            deltas[k++] = BigInteger.valueOf(b.reserved()).negate();
        }
        Integer[] idx = new Integer[k];
        for (int i = 0; i < k; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, Comparator.comparingLong(i -> steps[i]));
        BigInteger liveNow = BigInteger.ZERO;
        BigInteger peak = BigInteger.ZERO;
        long peakStep = -1;
        for (int q = 0; q < k; q++) {
            liveNow = liveNow.add(deltas[idx[q]]);
            boolean lastAtStep = q == k - 1 || steps[idx[q + 1]] != steps[idx[q]];
            if (lastAtStep && liveNow.compareTo(peak) > 0) {
                peak = liveNow;
                peakStep = steps[idx[q]];
            }
        }
        return new BigInteger[]{high, gen, peak, BigInteger.valueOf(peakStep)};
    }

    /**
     * What a plan says is proved about a space's high-water mark must add up: the lower bound lies
     * between the peak of live bytes (which no placement beats) and the high-water mark; a proof
     * puts it at the high-water mark, an open bracket below it.
     */
    private void checkOptimality(Space sp, Optimality o, BigInteger high, BigInteger peak) {
        checks++;
        BigInteger lower = BigInteger.valueOf(o.lowerBound());
        if (lower.compareTo(peak) < 0 || lower.compareTo(high) > 0) {
            fail(Verdict.Kind.METRIC_MISMATCH, "space " + sp.name() + ": lowerBound " + lower + " is not between the "
                    + "peak of live bytes " + peak + " and the high-water mark " + high);
        } else if (o.optimal() != lower.equals(high)) {
            fail(Verdict.Kind.METRIC_MISMATCH, "space " + sp.name() + ": proof " + o.proof().id() + " with lowerBound "
                    + lower + " and high-water mark " + high + (o.optimal() ? ": a proved optimum is the lower bound"
                    : ": an open bracket has its lower bound below the high-water mark"));
        }
    }

    private void compare(Space sp, String metric, long stated, BigInteger actual) {
        if (!BigInteger.valueOf(stated).equals(actual)) {
            fail(Verdict.Kind.METRIC_MISMATCH, "space " + sp.name() + ": " + metric + " is " + stated
                    + " in the plan, but the reservations give " + actual);
        }
    }

    /**
     * The tiles and their descriptors, from the contract (§4 {@code generation.descriptor}, §5
     * {@code tile}, §6): only a tile buffer names a tensor in {@code of}, and every one does;
     * whatever a tile buffer or a descriptor names is a tensor of the plan with tile buffers.
     * Descriptor names are unique. The rest is per tiled tensor ({@link #checkTiled}) and of the
     * descriptor table ({@link #checkTable}).
     */
    private void checkDescriptors() {
        List<PlannedBuffer> all = plan.buffers();
        Map<String, Indices> tilesOf = new LinkedHashMap<>();
        Indices tables = new Indices();
        for (int i = 0; i < all.size(); i++) {
            PlannedBuffer b = all.get(i);
            if (b.origin() == Origin.TILE) {
                if (b.of().isEmpty()) {
                    fail(Verdict.Kind.BAD_DESCRIPTOR, "tile buffer " + b.name() + " names no tensor in of");
                } else {
                    tilesOf.computeIfAbsent(b.of().get(), k -> new Indices()).add(i);
                }
            } else if (b.of().isPresent()) {
                fail(Verdict.Kind.BAD_DESCRIPTOR, b.name() + " is a " + b.origin().id() + " reservation, yet it is of "
                        + b.of().get() + ": only a tile buffer names a tensor in of");
            }
            if (b.origin() == Origin.DESCRIPTOR_TABLE) {
                tables.add(i);
            }
        }
        Map<String, List<DescriptorEntry>> descriptorsOf = new LinkedHashMap<>();
        Set<String> names = new HashSet<>();
        for (DescriptorEntry d : plan.descriptors()) {
            checks++;
            if (!names.add(d.name())) {
                fail(Verdict.Kind.DUPLICATE_NAME, "two descriptors are named " + d.name());
            }
            descriptorsOf.computeIfAbsent(d.of(), k -> new ArrayList<>()).add(d);
        }
        Set<String> tensors = new LinkedHashSet<>(tilesOf.keySet());
        tensors.addAll(descriptorsOf.keySet());
        Map<String, PlannedBuffer> named = new HashMap<>();
        if (!tensors.isEmpty()) {
            for (PlannedBuffer b : all) {
                if (tensors.contains(b.name())) {
                    named.putIfAbsent(b.name(), b);
                }
            }
        }
        for (String name : tensors) {
            int[] tiles = tilesOf.containsKey(name) ? tilesOf.get(name).toArray() : new int[0];
            List<DescriptorEntry> ds = descriptorsOf.getOrDefault(name, List.of());
            PlannedBuffer t = named.get(name);
            String why = t == null ? "which is no reservation of the plan"
                    : t.origin() != Origin.TENSOR ? "a " + t.origin().id() + " reservation, not a tensor"
                    : tiles.length == 0 ? "a tensor without tile buffers" : null;
            if (why != null) {
                for (int i : tiles) {
                    fail(Verdict.Kind.BAD_DESCRIPTOR, "tile buffer " + all.get(i).name() + " is of " + name + ", " + why);
                }
                for (DescriptorEntry d : ds) {
                    fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor " + d.name() + " is of " + name + ", " + why);
                }
                continue;
            }
            checks++;
            checkTiled(t, tiles, ds);
        }
        checkTable(tables.toArray());
    }

    /**
     * One tiled tensor of {@code size} bytes: its tile buffers are of one tile size {@code S} in
     * one local space, each live over the tensor's steps; the tiles that carry bytes are
     * {@code k = ceil(size / S)} (one, of 0 bytes, for a tensor of 0 bytes), and each has one
     * descriptor: tiles 0..k-1 each once, tile {@code i} at the tensor's start plus {@code i·S}
     * (plus the base of an external space) carrying {@code min(S, size - i·S)} bytes.
     */
    private void checkTiled(PlannedBuffer t, int[] tiles, List<DescriptorEntry> ds) {
        List<PlannedBuffer> all = plan.buffers();
        PlannedBuffer one = all.get(tiles[0]);
        long size = t.requested();
        long tile = one.requested();
        for (int i : tiles) {
            PlannedBuffer b = all.get(i);
            if (!b.space().equals(one.space()) || b.requested() != tile) {
                fail(Verdict.Kind.BAD_DESCRIPTOR, "tile buffers of " + t.name() + ": " + one.name() + " holds " + tile
                        + " bytes in space " + one.space() + ", " + b.name() + " " + b.requested() + " in " + b.space()
                        + ": a tensor's tile buffers are of one tile size in one space");
            }
            if (!b.live().equals(t.live())) {
                fail(Verdict.Kind.BAD_DESCRIPTOR, "tile buffer " + b.name() + " is live over steps " + b.live()
                        + ", its tensor " + t.name() + " over " + t.live() + ": tile buffers live over the tensor's steps");
            }
        }
        Space through = plan.target().spaces().get(one.space());
        if (through != null && !(through instanceof Space.Local)) {
            fail(Verdict.Kind.BAD_DESCRIPTOR, "the tile buffers of " + t.name() + " are in space " + through.name()
                    + ", which is " + through.kind() + ": tiles go through a local space");
        }
        if (size < 0 || tile < 0) {
            return; // reported as BAD_SIZE
        }
        if (tile == 0 && size > 0) {
            fail(Verdict.Kind.BAD_DESCRIPTOR, "tensor " + t.name() + " of " + size + " bytes has tile buffers of 0 bytes:"
                    + " no tile carries its bytes");
            return;
        }
        long k = size == 0 ? 1 : (size - 1) / tile + 1;
        if (ds.size() != k) {
            fail(Verdict.Kind.BAD_DESCRIPTOR, "tensor " + t.name() + ": " + size + " bytes in tiles of " + tile
                    + " bytes are " + k + " tiles, one descriptor each (tiles 0.." + (k - 1) + "), but the plan has "
                    + ds.size());
        }
        Set<Integer> seen = new HashSet<>();
        for (DescriptorEntry d : ds) {
            if (d.tile() < 0 || d.tile() >= k) {
                fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor " + d.name() + " is tile " + d.tile() + " of " + t.name()
                        + ", which has tiles 0.." + (k - 1));
            } else if (!seen.add(d.tile())) {
                fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor " + d.name() + " is tile " + d.tile() + " of " + t.name()
                        + ", which has a descriptor already");
            } else {
                // i < k = ceil(size / S): i·S < size, in range
                long at = d.tile() * tile;
                checkDescriptor(d, t, at, Math.min(tile, size - at));
            }
        }
    }

    /**
     * Descriptor {@code d} of tensor {@code t} for the tile {@code bytes} bytes at {@code at}
     * in it: in the tensor's space, in the target's descriptor format, at the tile's address,
     * carrying its bytes, and encodable in both formats.
     */
    private void checkDescriptor(DescriptorEntry d, PlannedBuffer t, long at, long bytes) {
        Space sp = plan.target().spaces().get(d.space());
        AddressFormat f = plan.target().formats().get(d.addressFormat());
        if (sp == null || f == null || !t.space().equals(d.space()) || d.transferBytes() < 0) {
            fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor " + d.name() + " names tensor " + d.of() + ", space "
                    + d.space() + ", format " + d.addressFormat() + ": not all of them exist and agree");
            return;
        }
        Optional<Generation.Descriptor> spec = plan.target().generation().flatMap(Generation::descriptor);
        String format = spec.isPresent() ? spec.get().addressFormat().orElse(sp.format().name()) : f.name();
        if (!format.equals(f.name())) {
            fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor " + d.name() + " is in format " + f.name() + ", but target "
                    + plan.target().name() + " gives its descriptors format " + format);
        }
        long base = sp.base();
        // base >= 0: an address at least base is base + rel, rel in 0..2^63-1, and rel - offset is
        // exact for an offset at least 0 (one below 0 is reported as BAD_SIZE)
        if (d.address() < base || d.address() - base - t.offset() != at || d.transferBytes() != bytes) {
            fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor " + d.name() + " is [" + d.address() + ", +" + d.transferBytes()
                    + "), but tile " + d.tile() + " of " + t.name() + " (offset " + t.offset() + (base == 0 ? ""
                    : ", base " + base) + ", tile offset " + at + ") is [" + BigInteger.valueOf(base)
                    .add(BigInteger.valueOf(t.offset())).add(BigInteger.valueOf(at)) + ", +" + bytes + ")");
        }
        if (!encodable(f, d.address(), d.transferBytes()) || !encodable(sp.format(), d.address(), d.transferBytes())) {
            fail(Verdict.Kind.NOT_ENCODABLE, "descriptor " + d.name() + ": [" + d.address() + ", +" + d.transferBytes()
                    + ") is not encodable in " + f.describe() + " and " + sp.format().describe());
        }
    }

    /**
     * The descriptor table (contract §4 {@code generation.descriptor}; design: it exists only
     * when there are descriptors): one reservation, in the target's descriptor space, of
     * {@code descriptors × bytes} bytes, aligned to the descriptor alignment.
     */
    private void checkTable(int[] tables) {
        List<PlannedBuffer> all = plan.buffers();
        int n = plan.descriptors().size();
        if (n == 0) {
            for (int i : tables) {
                fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor table " + all.get(i).name() + ", but the plan has no "
                        + "descriptors");
            }
            return;
        }
        checks++;
        Optional<Generation.Descriptor> spec = plan.target().generation().flatMap(Generation::descriptor);
        if (spec.isEmpty()) {
            fail(Verdict.Kind.BAD_DESCRIPTOR, "the plan has " + n + " descriptors, but target " + plan.target().name()
                    + " has no generation.descriptor to generate them");
            return;
        }
        if (tables.length != 1) {
            fail(Verdict.Kind.BAD_DESCRIPTOR, "the plan has " + n + " descriptors and " + tables.length
                    + " descriptor tables: they go into one");
            return;
        }
        Generation.Descriptor g = spec.get();
        PlannedBuffer table = all.get(tables[0]);
        if (!table.space().equals(g.space())) {
            fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor table " + table.name() + " is in space " + table.space()
                    + ", but target " + plan.target().name() + " puts it in " + g.space());
        }
        // requested = n × bytes, divided so that nothing overflows
        long req = table.requested();
        if (g.bytes() == 0 ? req != 0 : req % g.bytes() != 0 || req / g.bytes() != n) {
            fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor table " + table.name() + " requests " + req + " bytes, but "
                    + n + " descriptors of " + g.bytes() + " bytes are " + BigInteger.valueOf(n)
                    .multiply(BigInteger.valueOf(g.bytes())));
        }
        if (table.alignment() % g.alignment() != 0) {
            fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor table " + table.name() + " has alignment " + table.alignment()
                    + ", not a multiple of the descriptor alignment " + g.alignment());
        }
    }

    /** A capacity for a message: its bytes, or "none" (a logical space has no capacity). */
    private static String capacityText(OptionalLong c) {
        return c.isPresent() ? Long.toString(c.getAsLong()) : "none";
    }
}
