package dev.berth.verify;

import dev.berth.solve.SolverChoice;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The validator at the edges of each rule: ranges that end exactly at a format's limit
 * (exclusive and last-byte), touching ranges, buffers listed out of step order, the count of
 * violations and checks, metrics and descriptors at their limits, and the verdict's text.
 */
class PlanValidatorDetailTest {
    private static final AddressFormat EX = new AddressFormat("ex", 99, EndConvention.EXCLUSIVE);
    private static final AddressFormat LB = new AddressFormat("lb", 99, EndConvention.LAST_BYTE);

    private static Target target() {
        Map<String, AddressFormat> f = new LinkedHashMap<>();
        f.put("ex", EX);
        f.put("lb", LB);
        Map<String, Space> s = new LinkedHashMap<>();
        s.put("g", new Space.Logical("g", EX, 1, 0));
        s.put("h", new Space.Logical("h", LB, 1, 0));
        s.put("w", new Space.External("w", EX, 1, 5, 50, OptionalLong.empty()));
        return new Target("t", f, s, Optional.empty());
    }

    private static PlannedBuffer buf(String name, String space, long offset, long size, int first, int last) {
        return new PlannedBuffer(name, space, offset, size, size, 1, new Lifetime(first, last), Origin.TENSOR,
                Optional.empty());
    }

    /** A plan of these buffers whose metrics are computed here, naively, per step. */
    private static Plan plan(List<PlannedBuffer> buffers, List<DescriptorEntry> descriptors) {
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        for (String s : List.of("g", "h", "w")) {
            long high = 0;
            long peak = 0;
            int peakStep = -1;
            long gen = 0;
            for (int step = 0; step <= 20; step++) {
                long live = 0;
                for (PlannedBuffer b : buffers) {
                    if (b.space().equals(s) && b.live().first() <= step && step <= b.live().last()) {
                        live += b.reserved();
                    }
                }
                if (live > peak) {
                    peak = live;
                    peakStep = step;
                }
            }
            for (PlannedBuffer b : buffers) {
                if (b.space().equals(s)) {
                    high = Math.max(high, b.offset() + b.reserved());
                    if (b.origin() == Origin.DESCRIPTOR_TABLE || b.origin() == Origin.INSTRUCTIONS) {
                        gen += b.reserved();
                    }
                }
            }
            m.put(s, new SpaceMetrics("logical", OptionalLong.empty(), high, peak, peakStep, gen, s.equals("w") ? 5 : 0));
        }
        m.put("w", new SpaceMetrics("external", OptionalLong.empty(), m.get("w").highWater(), m.get("w").peakLive(),
                m.get("w").peakStep(), m.get("w").generationOverhead(), 5));
        return new Plan(target(), "wl", SolverChoice.AUTO, m, buffers, descriptors);
    }

    private static List<Verdict.Kind> kinds(Plan p) {
        Verdict v = PlanValidator.validate(p);
        return v instanceof Verdict.Invalid bad ? bad.violations().stream().map(Verdict.Violation::kind).toList() : List.of();
    }

    @Test
    void rangesEndingExactlyAtTheLimitAreEncodableUnderEachConvention() {
        // exclusive: [90, 99) ends at 99 = maxAddress; last-byte: [90, 100) has its last byte at 99
        assertThat(kinds(plan(List.of(buf("a", "g", 90, 9, 0, 0), buf("z", "g", 99, 0, 1, 1),
                buf("b", "h", 90, 10, 0, 0), buf("y", "h", 99, 1, 1, 1), buf("e", "h", 100, 0, 2, 2)), List.of())))
                .containsExactly(Verdict.Kind.NOT_ENCODABLE);
        assertThat(kinds(plan(List.of(buf("a", "g", 90, 10, 0, 0)), List.of()))).containsExactly(Verdict.Kind.NOT_ENCODABLE);
        assertThat(kinds(plan(List.of(buf("b", "h", 90, 11, 0, 0)), List.of()))).containsExactly(Verdict.Kind.NOT_ENCODABLE);
        assertThat(kinds(plan(List.of(buf("b", "h", 91, 9, 0, 0), buf("z", "h", 99, 0, 1, 1)), List.of()))).isEmpty();
        // an external space's base counts: base 50 + offset 49 + 1 byte ends at 100 > 99
        assertThat(kinds(plan(List.of(buf("x", "w", 40, 9, 0, 0)), List.of()))).isEmpty();
        assertThat(kinds(plan(List.of(buf("x", "w", 40, 10, 0, 0)), List.of()))).containsExactly(Verdict.Kind.NOT_ENCODABLE);
    }

    @Test
    void zeroSizedAndExactBuffersAreSound() {
        Plan p = plan(List.of(buf("zero", "g", 0, 0, 0, 0), buf("a", "g", 0, 10, 0, 0)), List.of());
        assertThat(PlanValidator.validate(p).valid()).isTrue();
    }

    @Test
    void buffersListedOutOfStepOrderAreSweptInStepOrder() {
        // the later buffer first, at the same address: no overlap in time
        assertThat(kinds(plan(List.of(buf("late", "g", 0, 10, 5, 6), buf("early", "g", 0, 10, 0, 1)), List.of()))).isEmpty();
        // a long-lived buffer, a short one that ends at step 0, then one at step 1 where the short one was
        assertThat(kinds(plan(List.of(buf("long", "g", 0, 10, 0, 9), buf("short", "g", 10, 10, 0, 0),
                buf("next", "g", 10, 10, 1, 1)), List.of()))).isEmpty();
    }

    @Test
    void eachOverlapIsReportedOnceAndTouchingRangesAreNoOverlap() {
        List<PlannedBuffer> bs = List.of(buf("a", "g", 0, 10, 0, 5), buf("b", "g", 5, 10, 0, 5),
                buf("c", "g", 12, 2, 0, 5), buf("d", "g", 15, 5, 0, 5));
        assertThat(kinds(plan(bs, List.of()))).containsExactly(Verdict.Kind.OVERLAP);
        assertThat(kinds(plan(List.of(buf("a", "g", 0, 10, 0, 5), buf("b", "g", 10, 10, 0, 5)), List.of()))).isEmpty();
        // the held neighbour above, touching the new one's end
        assertThat(kinds(plan(List.of(buf("above", "g", 10, 10, 0, 5), buf("below", "g", 0, 10, 0, 5)), List.of())))
                .isEmpty();
    }

    @Test
    void checksAreCountedOnePerBufferSweepSpaceAndDescriptor() {
        Plan p = plan(List.of(buf("a", "g", 0, 10, 0, 1), buf("b", "g", 10, 10, 0, 1), buf("z", "h", 0, 0, 0, 0)),
                List.of(new DescriptorEntry("a.tile.0", 0, "a", 0, 10, "g", "ex")));
        // 3 buffers + 2 non-empty buffers swept + 3 spaces' metrics + 1 descriptor
        assertThat(PlanValidator.validate(p)).isEqualTo(new Verdict.Valid(9));
    }

    @Test
    void metricsAreComparedOneByOne() {
        Plan sound = plan(List.of(buf("a", "g", 0, 10, 0, 1), buf("b", "g", 10, 5, 1, 2)), List.of());
        assertThat(kinds(sound)).isEmpty();
        assertThat(sound.spaces().get("g").peakStep()).isEqualTo(1);
        assertThat(sound.spaces().get("h").peakStep()).isEqualTo(-1);
        for (int which = 0; which < 6; which++) {
            Map<String, SpaceMetrics> m = new LinkedHashMap<>(sound.spaces());
            SpaceMetrics g = m.get("g");
            // the peak step one later (where fewer bytes are live) or -1 (as if none were)
            int step = which == 4 ? g.peakStep() + 1 : which == 5 ? -1 : g.peakStep();
            m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), g.highWater() + (which == 0 ? 1 : 0),
                    g.peakLive() + (which == 1 ? 1 : 0), step, g.generationOverhead() + (which == 2 ? 1 : 0),
                    g.runtimeReserve() + (which == 3 ? 1 : 0)));
            Plan bad = new Plan(sound.target(), "wl", SolverChoice.AUTO, m, sound.buffers(), List.of());
            assertThat(kinds(bad)).as("metric %d", which).containsExactly(Verdict.Kind.METRIC_MISMATCH);
        }
        Map<String, SpaceMetrics> kind = new LinkedHashMap<>(sound.spaces());
        kind.put("g", new SpaceMetrics("local", OptionalLong.empty(), 15, 15, 1, 0, 0));
        assertThat(kinds(new Plan(sound.target(), "wl", SolverChoice.AUTO, kind, sound.buffers(), List.of())))
                .containsExactly(Verdict.Kind.SPACE_MISMATCH);
        Map<String, SpaceMetrics> missing = new LinkedHashMap<>(sound.spaces());
        missing.remove("h");
        assertThat(kinds(new Plan(sound.target(), "wl", SolverChoice.AUTO, missing, sound.buffers(), List.of())))
                .containsExactly(Verdict.Kind.SPACE_MISMATCH);
        Map<String, SpaceMetrics> extra = new LinkedHashMap<>(sound.spaces());
        extra.put("ghost", sound.spaces().get("h"));
        assertThat(kinds(new Plan(sound.target(), "wl", SolverChoice.AUTO, extra, sound.buffers(), List.of())))
                .containsExactly(Verdict.Kind.UNKNOWN_SPACE);
    }

    @Test
    void generationOverheadCountsDescriptorTablesAndInstructions() {
        List<PlannedBuffer> bs = List.of(buf("a", "g", 0, 10, 0, 1),
                new PlannedBuffer("descriptor-table", "g", 10, 8, 8, 1, new Lifetime(0, 1), Origin.DESCRIPTOR_TABLE,
                        Optional.empty()),
                new PlannedBuffer("instructions", "g", 18, 4, 4, 1, new Lifetime(0, 1), Origin.INSTRUCTIONS,
                        Optional.empty()));
        Plan p = plan(bs, List.of());
        assertThat(p.spaces().get("g").generationOverhead()).isEqualTo(12);
        assertThat(kinds(p)).isEmpty();
    }

    @Test
    void descriptorsMayCarryZeroBytesButMustStayInsideTheirTensor() {
        List<PlannedBuffer> bs = List.of(buf("a", "g", 10, 10, 0, 1), buf("x", "w", 0, 10, 0, 1));
        assertThat(kinds(plan(bs, List.of(new DescriptorEntry("a.tile.0", 0, "a", 20, 0, "g", "ex"),
                new DescriptorEntry("a.tile.1", 1, "a", 10, 10, "g", "lb"),
                new DescriptorEntry("x.tile.0", 0, "x", 50, 10, "w", "ex"))))).isEmpty();
        assertThat(kinds(plan(bs, List.of(new DescriptorEntry("a.tile.0", 0, "a", 9, 2, "g", "ex")))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
        assertThat(kinds(plan(bs, List.of(new DescriptorEntry("a.tile.0", 0, "a", 19, 2, "g", "ex")))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
        assertThat(kinds(plan(bs, List.of(new DescriptorEntry("x.tile.0", 0, "x", 0, 10, "w", "ex")))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
        assertThat(kinds(plan(bs, List.of(new DescriptorEntry("a.tile.0", 0, "a", 10, 1, "g", "nope")))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
        assertThat(kinds(plan(bs, List.of(new DescriptorEntry("a.tile.0", -1, "a", 10, 1, "g", "ex")))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
        assertThat(kinds(plan(bs, List.of(new DescriptorEntry("a.tile.0", 0, "a", 10, -1, "g", "ex")))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
    }

    @Test
    void theVerdictSaysHowManyViolationsAndListsTwentyAtMost() {
        Verdict.Invalid one = new Verdict.Invalid(List.of(new Verdict.Violation(Verdict.Kind.OVERLAP, "x")));
        assertThat(one.valid()).isFalse();
        assertThat(one.toString()).isEqualTo("plan failed validation (1 violation):\n  - OVERLAP: x");
        List<Verdict.Violation> many = new ArrayList<>();
        for (int i = 0; i < 22; i++) {
            many.add(new Verdict.Violation(Verdict.Kind.BAD_SIZE, "v" + i));
        }
        String text = new Verdict.Invalid(many).toString();
        assertThat(text).startsWith("plan failed validation (22 violations):\n  - BAD_SIZE: v0\n")
                .contains("  - BAD_SIZE: v19\n").doesNotContain("v20").endsWith("\n  ... 2 more");
        List<Verdict.Violation> twenty = many.subList(0, 20);
        assertThat(new Verdict.Invalid(twenty).toString()).endsWith("  - BAD_SIZE: v19").doesNotContain("more");
        assertThat(new Verdict.Valid(3).valid()).isTrue();
    }
}
