package dev.berth.verify;

import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.workload.Origin;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;

/**
 * TEST ORACLE: the validator as it was before its primitive-array rewrite (its unbounded-integer
 * sweep, kept verbatim), against which {@code PlanValidatorDifferentialTest} checks the rewrite.
 *
 * <p>Re-checks a plan from scratch before it is written. It shares no code with the planners
 * or the admission check: address and capacity rules are re-derived here with
 * {@link BigInteger} (no overflow is possible), overlaps are found by a sweep over steps with
 * an ordered map of live reservations, and the metrics are recomputed and compared.
 */
final class ReferenceValidator {
    private static final BigInteger ONE = BigInteger.ONE;

    private final Plan plan;
    private final List<Verdict.Violation> out = new ArrayList<>();
    private long checks;

    private ReferenceValidator(Plan plan) {
        this.plan = plan;
    }

    public static Verdict validate(Plan plan) {
        ReferenceValidator v = new ReferenceValidator(plan);
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
        Set<String> names = new HashSet<>();
        Map<String, List<PlannedBuffer>> bySpace = new HashMap<>();
        for (PlannedBuffer b : plan.buffers()) {
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
            bySpace.computeIfAbsent(b.space(), k -> new ArrayList<>()).add(b);
        }
        for (Space sp : spaces.values()) {
            List<PlannedBuffer> list = bySpace.getOrDefault(sp.name(), List.of());
            checkOverlaps(sp, list);
            checkMetrics(sp, list);
        }
        checkDescriptors(names);
    }

    private void checkOne(PlannedBuffer b, Space sp) {
        if (b.offset() < 0 || b.requested() < 0 || b.reserved() < b.requested() || b.alignment() < 1) {
            fail(Verdict.Kind.BAD_SIZE, b.name() + ": offset " + b.offset() + ", requested " + b.requested() + ", reserved "
                    + b.reserved() + ", alignment " + b.alignment());
            return;
        }
        if (b.origin() == Origin.FIXED) {
            if (b.reserved() != b.requested()) {
                fail(Verdict.Kind.BAD_SIZE, "fixed region " + b.name() + " reserves " + b.reserved() + " for "
                        + b.requested() + " bytes: fixed regions are exact");
            }
        } else {
            if (b.offset() % b.alignment() != 0 || b.reserved() % b.alignment() != 0
                    || b.alignment() % sp.alignment() != 0) {
                fail(Verdict.Kind.MISALIGNED, b.name() + ": offset " + b.offset() + " and reserved " + b.reserved()
                        + " must be multiples of alignment " + b.alignment() + ", itself a multiple of space "
                        + sp.name() + "'s alignment " + sp.alignment());
            }
            BigInteger need = BigInteger.valueOf(b.requested());
            BigInteger al = BigInteger.valueOf(b.alignment());
            BigInteger least = need.add(al).subtract(ONE).divide(al).multiply(al);
            if (!least.equals(BigInteger.valueOf(b.reserved()))) {
                fail(Verdict.Kind.BAD_SIZE, b.name() + ": " + b.requested() + " bytes at alignment " + b.alignment()
                        + " reserve " + least + ", not " + b.reserved());
            }
        }
        BigInteger start = BigInteger.valueOf(sp.base()).add(BigInteger.valueOf(b.offset()));
        if (!encodable(sp.format(), start, BigInteger.valueOf(b.reserved()))) {
            fail(Verdict.Kind.NOT_ENCODABLE, b.name() + ": [" + start + ", +" + b.reserved() + ") is not encodable in "
                    + sp.format().describe());
        }
        if (sp.capacity().isPresent()) {
            BigInteger cap = BigInteger.valueOf(sp.capacity().getAsLong()).subtract(BigInteger.valueOf(sp.runtimeReserve()));
            if (BigInteger.valueOf(b.offset()).add(BigInteger.valueOf(b.reserved())).compareTo(cap) > 0) {
                fail(Verdict.Kind.OVER_CAPACITY, b.name() + ": ends at " + (BigInteger.valueOf(b.offset()).add(
                        BigInteger.valueOf(b.reserved()))) + ", past the usable capacity " + cap + " of space " + sp.name());
            }
        }
    }

    /** Contract §3 restated over unbounded integers. */
    private static boolean encodable(AddressFormat f, BigInteger start, BigInteger bytes) {
        BigInteger m = BigInteger.valueOf(f.maxAddress());
        if (start.compareTo(m) > 0) {
            return false;
        }
        if (f.end() == EndConvention.EXCLUSIVE) {
            return start.add(bytes).compareTo(m) <= 0;
        }
        return bytes.signum() == 0 || start.add(bytes).subtract(ONE).compareTo(m) <= 0;
    }

    /** Sweep over steps; live reservations ordered by offset never overlap, so neighbours suffice. */
    private void checkOverlaps(Space sp, List<PlannedBuffer> list) {
        List<PlannedBuffer> starts = new ArrayList<>();
        for (PlannedBuffer b : list) {
            if (b.reserved() > 0) {
                starts.add(b);
            }
        }
        starts.sort(Comparator.comparingInt((PlannedBuffer b) -> b.live().first()));
        PriorityQueue<PlannedBuffer> byLast = new PriorityQueue<>(Comparator.comparingInt(b -> b.live().last()));
        TreeMap<Long, PlannedBuffer> live = new TreeMap<>();
        for (PlannedBuffer b : starts) {
            checks++;
            while (!byLast.isEmpty() && byLast.peek().live().last() < b.live().first()) {
                PlannedBuffer gone = byLast.poll();
                live.remove(gone.offset(), gone);
            }
            Map.Entry<Long, PlannedBuffer> below = live.floorEntry(b.offset());
            Map.Entry<Long, PlannedBuffer> above = live.higherEntry(b.offset());
            boolean clash = false;
            if (below != null && overlap(below.getValue(), b)) {
                clash = report(sp, below.getValue(), b);
            }
            if (above != null && overlap(above.getValue(), b)) {
                clash = report(sp, above.getValue(), b);
            }
            if (!clash) {
                live.put(b.offset(), b);
                byLast.add(b);
            }
        }
    }

    private static boolean overlap(PlannedBuffer a, PlannedBuffer b) {
        BigInteger aEnd = BigInteger.valueOf(a.offset()).add(BigInteger.valueOf(a.reserved()));
        BigInteger bEnd = BigInteger.valueOf(b.offset()).add(BigInteger.valueOf(b.reserved()));
        return BigInteger.valueOf(a.offset()).compareTo(bEnd) < 0 && BigInteger.valueOf(b.offset()).compareTo(aEnd) < 0;
    }

    private boolean report(Space sp, PlannedBuffer a, PlannedBuffer b) {
        fail(Verdict.Kind.OVERLAP, "in space " + sp.name() + ", " + a.name() + " [" + a.offset() + ", +" + a.reserved()
                + ") steps " + a.live() + " overlaps " + b.name() + " [" + b.offset() + ", +" + b.reserved() + ") steps "
                + b.live());
        return true;
    }

    private void checkMetrics(Space sp, List<PlannedBuffer> list) {
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
            fail(Verdict.Kind.SPACE_MISMATCH, "space " + sp.name() + ": capacity " + m.capacity() + " in the plan, "
                    + sp.capacity() + " in the target");
        }
        BigInteger high = BigInteger.ZERO;
        BigInteger gen = BigInteger.ZERO;
        long[] steps = new long[2 * list.size()];
        BigInteger[] deltas = new BigInteger[2 * list.size()];
        int k = 0;
        for (PlannedBuffer b : list) {
            high = high.max(BigInteger.valueOf(b.offset()).add(BigInteger.valueOf(b.reserved())));
            if (b.origin() == Origin.DESCRIPTOR_TABLE || b.origin() == Origin.INSTRUCTIONS) {
                gen = gen.add(BigInteger.valueOf(b.reserved()));
            }
            steps[k] = b.live().first();
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

    private void checkDescriptors(Set<String> names) {
        Map<String, PlannedBuffer> byName = new HashMap<>();
        for (PlannedBuffer b : plan.buffers()) {
            byName.putIfAbsent(b.name(), b);
        }
        for (DescriptorEntry d : plan.descriptors()) {
            checks++;
            PlannedBuffer tensor = byName.get(d.of());
            Space sp = plan.target().spaces().get(d.space());
            AddressFormat f = plan.target().formats().get(d.addressFormat());
            if (tensor == null || sp == null || f == null || !tensor.space().equals(d.space()) || d.tile() < 0
                    || d.transferBytes() < 0) {
                fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor " + d.name() + " names tensor " + d.of() + ", space "
                        + d.space() + ", format " + d.addressFormat() + ": not all of them exist and agree");
                continue;
            }
            BigInteger addr = BigInteger.valueOf(d.address());
            BigInteger bytes = BigInteger.valueOf(d.transferBytes());
            BigInteger rel = addr.subtract(BigInteger.valueOf(sp.base()));
            BigInteger tStart = BigInteger.valueOf(tensor.offset());
            if (rel.compareTo(tStart) < 0
                    || rel.add(bytes).compareTo(tStart.add(BigInteger.valueOf(tensor.requested()))) > 0) {
                fail(Verdict.Kind.BAD_DESCRIPTOR, "descriptor " + d.name() + " covers [" + addr + ", +" + bytes
                        + "), outside tensor " + d.of());
            }
            if (!encodable(f, addr, bytes) || !encodable(sp.format(), addr, bytes)) {
                fail(Verdict.Kind.NOT_ENCODABLE, "descriptor " + d.name() + ": [" + addr + ", +" + bytes
                        + ") is not encodable in " + f.describe() + " and " + sp.format().describe());
            }
        }
    }
}
