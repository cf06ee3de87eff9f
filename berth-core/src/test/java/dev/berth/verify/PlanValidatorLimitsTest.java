package dev.berth.verify;

import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.solve.SolverChoice;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The validator where its long arithmetic could go wrong: a reservation ending exactly at the
 * usable capacity or one byte past it, reserves one alignment too large, offsets and sizes next
 * to 2^63-1 (whose sums pass it), the metrics of a space whose sums pass it, and a sweep where a
 * reservation that clashes is not kept.
 */
class PlanValidatorLimitsTest {
    private static final long MAX = Long.MAX_VALUE;
    private static final AddressFormat BIG = new AddressFormat("big", MAX, EndConvention.EXCLUSIVE);
    private static final AddressFormat BIG_LAST = new AddressFormat("bigLast", MAX, EndConvention.LAST_BYTE);

    /**
     * g: logical, alignment 1; l: local, alignment 4, capacity 64 with 16 reserved (48 usable); x: external at base 5;
     * descriptors of 4 bytes in g.
     */
    private static Target target() {
        Map<String, AddressFormat> f = new LinkedHashMap<>();
        f.put("big", BIG);
        f.put("bigLast", BIG_LAST);
        Map<String, Space> s = new LinkedHashMap<>();
        s.put("g", new Space.Logical("g", BIG, 1, 0));
        s.put("l", new Space.Local("l", BIG, 4, 16, 64));
        s.put("x", new Space.External("x", BIG, 1, 0, 5, OptionalLong.empty()));
        // descriptors of 4 bytes in g, their addresses in the last-byte format
        return new Target("t", f, s, Optional.of(new Generation(Optional.of(new Generation.Descriptor("g", 4, 4,
                Optional.of("bigLast"))), Optional.empty())));
    }

    private static PlannedBuffer buf(String name, String space, long offset, long requested, long reserved, long align,
                                     int first, int last) {
        return buf(name, space, offset, requested, reserved, align, first, last, Origin.TENSOR);
    }

    private static PlannedBuffer buf(String name, String space, long offset, long requested, long reserved, long align,
                                     int first, int last, Origin origin) {
        return new PlannedBuffer(name, space, offset, requested, reserved, align, new Lifetime(first, last), origin,
                Optional.empty());
    }

    private static SpaceMetrics metrics(String space, long high, long peak, int peakStep, long gen) {
        return switch (space) {
            case "g" -> new SpaceMetrics("logical", OptionalLong.empty(), high, peak, peakStep, gen, 0);
            case "l" -> new SpaceMetrics("local", OptionalLong.of(64), high, peak, peakStep, gen, 16);
            default -> new SpaceMetrics("external", OptionalLong.empty(), high, peak, peakStep, gen, 0);
        };
    }

    /** A plan of buffers whose sums stay within long, with their metrics computed here step by step. */
    private static Plan plan(List<PlannedBuffer> buffers, List<DescriptorEntry> descriptors) {
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        for (String s : List.of("g", "l", "x")) {
            long high = 0;
            long gen = 0;
            long peak = 0;
            int peakStep = -1;
            for (PlannedBuffer b : buffers) {
                if (b.space().equals(s)) {
                    high = Math.max(high, Math.addExact(b.offset(), b.reserved()));
                    if (b.origin() == Origin.DESCRIPTOR_TABLE || b.origin() == Origin.INSTRUCTIONS) {
                        gen = Math.addExact(gen, b.reserved());
                    }
                }
            }
            for (int step = 0; step <= 20; step++) {
                long live = 0;
                for (PlannedBuffer b : buffers) {
                    if (b.space().equals(s) && b.live().first() <= step && step <= b.live().last()) {
                        live = Math.addExact(live, b.reserved());
                    }
                }
                if (live > peak) {
                    peak = live;
                    peakStep = step;
                }
            }
            m.put(s, metrics(s, high, peak, peakStep, gen));
        }
        return new Plan(target(), "wl", SolverChoice.AUTO, m, buffers, descriptors);
    }

    /** The plan with space g's metrics as given and the others' (empty) metrics. */
    private static Plan planWithG(List<PlannedBuffer> buffers, SpaceMetrics g) {
        Map<String, SpaceMetrics> m = new LinkedHashMap<>(plan(List.of(), List.of()).spaces());
        m.put("g", g);
        return new Plan(target(), "wl", SolverChoice.AUTO, m, buffers, List.of());
    }

    private static List<Verdict.Violation> violations(Plan p) {
        Verdict v = PlanValidator.validate(p);
        return v instanceof Verdict.Invalid bad ? bad.violations() : List.of();
    }

    private static List<Verdict.Kind> kinds(Plan p) {
        return violations(p).stream().map(Verdict.Violation::kind).toList();
    }

    private static List<Verdict.Kind> kinds(PlannedBuffer... buffers) {
        return kinds(plan(List.of(buffers), List.of()));
    }

    @Test
    void aReservationMayEndExactlyAtTheUsableCapacity() {
        assertThat(kinds(buf("a", "l", 40, 8, 8, 4, 0, 0))).isEmpty();
        assertThat(kinds(buf("a", "l", 48, 0, 0, 4, 0, 0))).isEmpty();
        assertThat(kinds(buf("a", "l", 44, 8, 8, 4, 0, 0))).containsExactly(Verdict.Kind.OVER_CAPACITY);
        assertThat(kinds(buf("a", "l", 52, 0, 0, 4, 0, 0))).containsExactly(Verdict.Kind.OVER_CAPACITY);
        // the capacity test cannot overflow: an offset near 2^63-1 is past it, and so is its end
        List<Verdict.Violation> far = violations(plan(List.of(buf("a", "l", MAX - 3, 0, 0, 4, 0, 0)), List.of()));
        assertThat(far).extracting(Verdict.Violation::kind).containsExactly(Verdict.Kind.OVER_CAPACITY);
        assertThat(far.get(0).detail()).isEqualTo("a: ends at 9223372036854775804, past the usable capacity 48 of space l");
        List<Verdict.Violation> big = violations(plan(List.of(buf("a", "l", 0, MAX - 3, MAX - 3, 4, 0, 0)), List.of()));
        assertThat(big).extracting(Verdict.Violation::kind).containsExactly(Verdict.Kind.OVER_CAPACITY);
    }

    @Test
    void theReserveIsTheLeastMultipleOfTheAlignmentAtLeastTheRequest() {
        assertThat(kinds(buf("a", "g", 0, 5, 8, 4, 0, 0))).isEmpty();
        assertThat(kinds(buf("a", "g", 0, 4, 4, 4, 0, 0))).isEmpty();
        assertThat(kinds(buf("a", "g", 0, 0, 0, 4, 0, 0))).isEmpty();
        assertThat(kinds(buf("a", "g", 0, 4, 8, 4, 0, 0))).containsExactly(Verdict.Kind.BAD_SIZE);
        assertThat(kinds(buf("a", "g", 0, 0, 4, 4, 0, 0))).containsExactly(Verdict.Kind.BAD_SIZE);
        assertThat(kinds(buf("a", "g", 0, 5, 12, 4, 0, 0))).containsExactly(Verdict.Kind.BAD_SIZE);
        assertThat(kinds(buf("a", "g", 0, 5, 6, 4, 0, 0))).containsExactly(Verdict.Kind.MISALIGNED, Verdict.Kind.BAD_SIZE);
        // alignment 2 in a space of alignment 4: the reserve is right, the alignment is not
        assertThat(kinds(buf("a", "l", 0, 4, 4, 2, 0, 0))).containsExactly(Verdict.Kind.MISALIGNED);
        // the largest even request, and the largest odd one, whose least multiple of 2 is past 2^63-1
        assertThat(kinds(buf("a", "g", 0, MAX - 1, MAX - 1, 2, 0, 0))).isEmpty();
        List<Verdict.Violation> odd = violations(plan(List.of(buf("a", "g", 0, MAX, MAX, 2, 0, 0)), List.of()));
        assertThat(odd).extracting(Verdict.Violation::kind).containsExactly(Verdict.Kind.MISALIGNED, Verdict.Kind.BAD_SIZE);
        assertThat(odd.get(1).detail()).isEqualTo("a: 9223372036854775807 bytes at alignment 2 reserve 9223372036854775808,"
                + " not 9223372036854775807");
        // fixed regions are exact and need no alignment
        assertThat(kinds(buf("f", "g", 3, 5, 5, 4, 0, 0, Origin.FIXED))).isEmpty();
        assertThat(kinds(buf("f", "g", 0, 5, 8, 4, 0, 0, Origin.FIXED))).containsExactly(Verdict.Kind.BAD_SIZE);
    }

    @Test
    void anOffsetNextToTheTopOfLongIsEncodableUpToTheFormatsLimit() {
        // x's base 5 plus offset 2^63-6 is 2^63-1, the limit; one more passes 2^63-1
        assertThat(kinds(buf("a", "x", MAX - 5, 0, 0, 1, 0, 0))).isEmpty();
        assertThat(kinds(buf("a", "x", MAX - 6, 1, 1, 1, 0, 0))).isEmpty();
        assertThat(kinds(buf("a", "x", MAX - 6, 2, 2, 1, 0, 0))).containsExactly(Verdict.Kind.NOT_ENCODABLE);
        List<Verdict.Violation> past = violations(plan(List.of(buf("a", "x", MAX - 4, 0, 0, 1, 0, 0)), List.of()));
        assertThat(past).extracting(Verdict.Violation::kind).containsExactly(Verdict.Kind.NOT_ENCODABLE);
        assertThat(past.get(0).detail()).startsWith("a: [9223372036854775808, +0) is not encodable in format big");
        assertThat(kinds(buf("a", "x", MAX, 0, 0, 1, 0, 0))).containsExactly(Verdict.Kind.NOT_ENCODABLE);
        assertThat(kinds(buf("a", "g", MAX, 0, 0, 1, 0, 0))).isEmpty();
    }

    @Test
    void aDescriptorNextToTheTopOfLongIsEncodableUnderEachConvention() {
        // t: the last 10 bytes below 2^63-1 in one tile of 12; e: 0 bytes at 2^63-1 in one tile of 0
        List<PlannedBuffer> bs = List.of(buf("t", "g", MAX - 10, 10, 10, 1, 0, 0), buf("e", "g", MAX, 0, 0, 1, 0, 0),
                new PlannedBuffer("t.tilebuf.0", "l", 0, 12, 12, 4, new Lifetime(0, 0), Origin.TILE, Optional.of("t")),
                new PlannedBuffer("e.tilebuf.0", "l", 12, 0, 0, 4, new Lifetime(0, 0), Origin.TILE, Optional.of("e")),
                buf("descriptor-table", "g", 0, 8, 8, 4, 0, 0, Origin.DESCRIPTOR_TABLE));
        DescriptorEntry e = new DescriptorEntry("e.0", 0, "e", MAX, 0, "g", "bigLast");
        assertThat(kinds(plan(bs, List.of(new DescriptorEntry("t.0", 0, "t", MAX - 10, 10, "g", "bigLast"), e))))
                .isEmpty();
        // [2^63-9, +10) ends at 2^63+1 (exclusive), its last byte is 2^63: neither encodable, nor t's tile
        assertThat(kinds(plan(bs, List.of(new DescriptorEntry("t.0", 0, "t", MAX - 8, 10, "g", "bigLast"), e))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR, Verdict.Kind.NOT_ENCODABLE);
        // [2^63-10, +11): last byte 2^63-1 fits the last-byte format, the end 2^63 does not fit g's exclusive one
        assertThat(kinds(plan(bs, List.of(new DescriptorEntry("t.0", 0, "t", MAX - 10, 11, "g", "bigLast"), e))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR, Verdict.Kind.NOT_ENCODABLE);
        // [2^63-9, +9) is inside t and encodable in both, but it is not t's tile
        assertThat(kinds(plan(bs, List.of(new DescriptorEntry("t.0", 0, "t", MAX - 9, 9, "g", "bigLast"), e))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
    }

    @Test
    void reservationsNextToTheTopOfLongOverlapOnlyWhereTheyShareBytes() {
        SpaceMetrics g = metrics("g", MAX, 11, 0, 0);
        // [2^63-11, 2^63-1) and [2^63-1, 2^63) touch; the second ends past 2^63-1
        List<Verdict.Violation> touching = violations(planWithG(List.of(buf("a", "g", MAX - 10, 10, 10, 1, 0, 1),
                buf("b", "g", MAX, 1, 1, 1, 0, 1)), g));
        assertThat(touching).extracting(Verdict.Violation::kind)
                .containsExactly(Verdict.Kind.NOT_ENCODABLE, Verdict.Kind.METRIC_MISMATCH);
        assertThat(touching.get(1).detail()).isEqualTo("space g: highWater is 9223372036854775807 in the plan, but the"
                + " reservations give 9223372036854775808");
        // the same listed the other way round, so that the one past 2^63-1 is the held neighbour above
        assertThat(kinds(planWithG(List.of(buf("b", "g", MAX, 1, 1, 1, 0, 1), buf("a", "g", MAX - 10, 10, 10, 1, 0, 1)),
                g))).containsExactly(Verdict.Kind.NOT_ENCODABLE, Verdict.Kind.METRIC_MISMATCH);
        // [2^63-2, 2^63+1) shares two bytes with [2^63-11, 2^63-1)
        assertThat(kinds(planWithG(List.of(buf("a", "g", MAX - 10, 10, 10, 1, 0, 1), buf("b", "g", MAX - 1, 3, 3, 1, 0, 1)),
                metrics("g", MAX, 13, 0, 0)))).containsExactly(Verdict.Kind.NOT_ENCODABLE, Verdict.Kind.OVERLAP,
                Verdict.Kind.METRIC_MISMATCH);
    }

    @Test
    void aSpaceWhoseSumsPassTheRangeOfLongIsMeasuredOverUnboundedIntegers() {
        // listed out of step order; the tail's end passes 2^63-1; the peak 10 at steps 1-2 and again at 5-6
        List<PlannedBuffer> bs = List.of(buf("p", "g", 0, 10, 10, 1, 5, 6), buf("q", "g", 10, 10, 10, 1, 1, 2),
                buf("tail", "g", MAX - 1, 2, 2, 1, 9, 9), buf("ins", "g", 20, 4, 4, 1, 0, 0, Origin.INSTRUCTIONS));
        List<Verdict.Violation> right = violations(planWithG(bs, metrics("g", MAX, 10, 1, 4)));
        assertThat(right).extracting(Verdict.Violation::kind)
                .containsExactly(Verdict.Kind.NOT_ENCODABLE, Verdict.Kind.METRIC_MISMATCH);
        assertThat(right.get(1).detail()).contains("highWater", "give 9223372036854775808");
        List<Verdict.Violation> later = violations(planWithG(bs, metrics("g", MAX, 10, 5, 4)));
        assertThat(later).extracting(Verdict.Violation::detail).contains("space g: peakStep is 5 in the plan, but the"
                + " reservations give 1");
        assertThat(later).hasSize(3);
        List<Verdict.Violation> gen = violations(planWithG(bs, metrics("g", MAX, 10, 1, 0)));
        assertThat(gen).extracting(Verdict.Violation::detail).contains("space g: generationOverhead is 0 in the plan,"
                + " but the reservations give 4");
        // two reservations of 2^63-1 bytes live at once: the peak is 2^64-2 (and they overlap)
        List<Verdict.Violation> twice = violations(planWithG(List.of(buf("a", "g", 0, MAX, MAX, 1, 0, 1),
                buf("b", "g", 0, MAX, MAX, 1, 1, 2)), metrics("g", MAX, MAX, 0, 0)));
        assertThat(twice).extracting(Verdict.Violation::kind)
                .containsExactly(Verdict.Kind.OVERLAP, Verdict.Kind.METRIC_MISMATCH, Verdict.Kind.METRIC_MISMATCH);
        assertThat(twice).extracting(Verdict.Violation::detail).contains(
                "space g: peakLive is 9223372036854775807 in the plan, but the reservations give 18446744073709551614",
                "space g: peakStep is 0 in the plan, but the reservations give 1");
    }

    @Test
    void aReservationThatClashesIsNotKeptInTheSweep() {
        // "late" (listed first) clashes with "early" and is never held; when both have left, the sweep
        // holds nothing, so "d" still finds "c" below it
        List<PlannedBuffer> bs = List.of(buf("late", "g", 5, 10, 10, 1, 1, 1), buf("early", "g", 0, 10, 10, 1, 0, 1),
                buf("c", "g", 20, 10, 10, 1, 2, 3), buf("d", "g", 25, 10, 10, 1, 3, 3));
        List<Verdict.Violation> v = violations(plan(bs, List.of()));
        assertThat(v).extracting(Verdict.Violation::kind).containsExactly(Verdict.Kind.OVERLAP, Verdict.Kind.OVERLAP);
        assertThat(v.get(0).detail()).contains("early", "late");
        assertThat(v.get(1).detail()).contains("c [20, +10)", "d [25, +10)");
    }
}
