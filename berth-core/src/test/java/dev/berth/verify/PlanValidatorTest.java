package dev.berth.verify;

import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Optimality;
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
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** Each rule of the validator catches its violation, and only a sound plan is valid. */
class PlanValidatorTest {
    private static final AddressFormat F = new AddressFormat("f", 999, EndConvention.EXCLUSIVE);
    private static final AddressFormat NARROW = new AddressFormat("narrow", 199, EndConvention.LAST_BYTE);

    private static Target target() {
        Map<String, AddressFormat> fm = new LinkedHashMap<>();
        fm.put("f", F);
        fm.put("narrow", NARROW);
        Map<String, Space> sp = new LinkedHashMap<>();
        sp.put("g", new Space.Logical("g", F, 4, 0));
        sp.put("l", new Space.Local("l", F, 8, 16, 256));
        return new Target("t", fm, sp, Optional.empty());
    }

    private static PlannedBuffer buf(String name, String space, long offset, long requested, long reserved, long align,
                                     int first, int last, Origin origin) {
        return new PlannedBuffer(name, space, offset, requested, reserved, align, new Lifetime(first, last), origin,
                Optional.empty());
    }

    /** A sound plan: g holds a [0,100) 0..1, b [100,140) 1..2, fx [0,50) 2..3; l holds c [0,240) 0..0. */
    private static Plan sound() {
        List<PlannedBuffer> bs = List.of(
                buf("a", "g", 0, 99, 100, 4, 0, 1, Origin.TENSOR),
                buf("b", "g", 100, 40, 40, 4, 1, 2, Origin.TENSOR),
                buf("fx", "g", 0, 50, 50, 1, 2, 3, Origin.FIXED),
                buf("c", "l", 0, 240, 240, 8, 0, 0, Origin.TENSOR));
        return withBuffers(bs, List.of(new DescriptorEntry("a.tile.0", 0, "a", 0, 99, "g", "narrow")));
    }

    private static Plan withBuffers(List<PlannedBuffer> bs, List<DescriptorEntry> ds) {
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 140, 1, 0, 0));
        m.put("l", new SpaceMetrics("local", OptionalLong.of(256), 240, 240, 0, 0, 16));
        return new Plan(target(), "w", SolverChoice.AUTO, m, bs, ds);
    }

    private static Plan edit(int index, UnaryOperator<PlannedBuffer> f) {
        Plan p = sound();
        List<PlannedBuffer> bs = new ArrayList<>(p.buffers());
        bs.set(index, f.apply(bs.get(index)));
        return withBuffers(bs, p.descriptors());
    }

    private static void invalid(Plan p, Verdict.Kind kind) {
        Verdict v = PlanValidator.validate(p);
        assertThat(v).isInstanceOf(Verdict.Invalid.class);
        assertThat(((Verdict.Invalid) v).violations()).extracting(Verdict.Violation::kind).contains(kind);
    }

    @Test
    void aSoundPlanIsValid() {
        Verdict v = PlanValidator.validate(sound());
        assertThat(v.valid()).as(v.toString()).isTrue();
        assertThat(((Verdict.Valid) v).checks()).isGreaterThanOrEqualTo(4);
    }

    @Test
    void overlapsInAddressAndTime() {
        invalid(edit(1, b -> buf("b", "g", 96, 40, 40, 4, 1, 2, Origin.TENSOR)), Verdict.Kind.OVERLAP);
        // same addresses at disjoint steps are fine
        Verdict ok = PlanValidator.validate(edit(1, b -> buf("b", "g", 52, 40, 40, 4, 2, 3, Origin.TENSOR)));
        assertThat(ok.toString()).doesNotContain("OVERLAP");
        // a zero-byte reservation overlaps nothing
        assertThat(PlanValidator.validate(edit(1, b -> buf("b", "g", 40, 0, 0, 4, 1, 2, Origin.TENSOR))).toString())
                .doesNotContain("OVERLAP");
    }

    @Test
    void alignmentAndSizes() {
        invalid(edit(1, b -> buf("b", "g", 102, 40, 40, 4, 1, 2, Origin.TENSOR)), Verdict.Kind.MISALIGNED);
        invalid(edit(1, b -> buf("b", "g", 100, 40, 40, 2, 1, 2, Origin.TENSOR)), Verdict.Kind.MISALIGNED);
        invalid(edit(0, b -> buf("a", "g", 0, 99, 104, 4, 0, 1, Origin.TENSOR)), Verdict.Kind.BAD_SIZE);
        invalid(edit(0, b -> buf("a", "g", 0, 99, 96, 4, 0, 1, Origin.TENSOR)), Verdict.Kind.BAD_SIZE);
        invalid(edit(2, b -> buf("fx", "g", 0, 50, 52, 1, 2, 3, Origin.FIXED)), Verdict.Kind.BAD_SIZE);
        invalid(edit(1, b -> buf("a", "g", 100, 40, 40, 4, 1, 2, Origin.TENSOR)), Verdict.Kind.DUPLICATE_NAME);
        invalid(edit(1, b -> buf("b", "rom", 100, 40, 40, 4, 1, 2, Origin.TENSOR)), Verdict.Kind.UNKNOWN_SPACE);
    }

    @Test
    void formatAndCapacity() {
        // f: maxAddress 999, exclusive end: [960, 1000) passes 999
        invalid(edit(1, b -> buf("b", "g", 960, 40, 40, 4, 1, 2, Origin.TENSOR)), Verdict.Kind.NOT_ENCODABLE);
        // l: capacity 256 - runtimeReserve 16 = 240 usable
        invalid(edit(3, b -> buf("c", "l", 8, 240, 240, 8, 0, 0, Origin.TENSOR)), Verdict.Kind.OVER_CAPACITY);
    }

    @Test
    void metricsAreRecomputed() {
        Plan p = sound();
        Map<String, SpaceMetrics> m = new LinkedHashMap<>(p.spaces());
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 139, 1, 0, 0));
        invalid(new Plan(p.target(), "w", SolverChoice.AUTO, m, p.buffers(), p.descriptors()), Verdict.Kind.METRIC_MISMATCH);
        // 140 bytes are live at step 1 first (a and b), not at step 2 (b and fx: 90)
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 140, 2, 0, 0));
        invalid(new Plan(p.target(), "w", SolverChoice.AUTO, m, p.buffers(), p.descriptors()), Verdict.Kind.METRIC_MISMATCH);
        m.put("g", new SpaceMetrics("logical", OptionalLong.of(1 << 20), 140, 140, 1, 0, 0));
        invalid(new Plan(p.target(), "w", SolverChoice.AUTO, m, p.buffers(), p.descriptors()), Verdict.Kind.SPACE_MISMATCH);
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 140, 1, 0, 0));
        m.put("l", new SpaceMetrics("local", OptionalLong.of(256), 240, 240, 0, 0, 0));
        invalid(new Plan(p.target(), "w", SolverChoice.AUTO, m, p.buffers(), p.descriptors()), Verdict.Kind.METRIC_MISMATCH);
    }

    /**
     * g with b moved to steps 2..3 (beside fx, below it in bytes): high-water 140, peak of live
     * bytes 100, so a bracket can be open; l stays proved at its lower bound.
     */
    private static Plan withOptimality(Optimality g) {
        Plan p = edit(1, b -> buf("b", "g", 100, 40, 40, 4, 2, 3, Origin.TENSOR));
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 100, 0, 0, 0, Optional.of(g)));
        m.put("l", new SpaceMetrics("local", OptionalLong.of(256), 240, 240, 0, 0, 16, Optional.of(new Optimality(
                SolverKind.GREEDY, 240, Optimality.Proof.LOWER_BOUND, Optional.empty(), false))));
        return new Plan(p.target(), "w", SolverChoice.AUTO, m, p.buffers(), p.descriptors());
    }

    private static Optimality optimality(long lowerBound, Optimality.Proof proof) {
        return new Optimality(SolverKind.EXACT, lowerBound, proof, proof == Optimality.Proof.OPEN
                ? Optional.of(Optimality.Open.WORK_BUDGET) : Optional.empty(), false);
    }

    @Test
    void whatIsProvedMustAddUp() {
        for (long lower : new long[]{100, 120, 139}) {
            assertThat(PlanValidator.validate(withOptimality(optimality(lower, Optimality.Proof.OPEN))).valid())
                    .as("open at %d", lower).isTrue();
        }
        assertThat(PlanValidator.validate(withOptimality(optimality(140, Optimality.Proof.SEARCH))).valid()).isTrue();
        assertThat(PlanValidator.validate(withOptimality(optimality(140, Optimality.Proof.LOWER_BOUND))).valid()).isTrue();
        // below the peak of live bytes, above the high-water mark
        invalid(withOptimality(optimality(99, Optimality.Proof.OPEN)), Verdict.Kind.METRIC_MISMATCH);
        invalid(withOptimality(optimality(141, Optimality.Proof.SEARCH)), Verdict.Kind.METRIC_MISMATCH);
        // a proof below the high-water mark, an open bracket that is closed
        invalid(withOptimality(optimality(139, Optimality.Proof.SEARCH)), Verdict.Kind.METRIC_MISMATCH);
        invalid(withOptimality(optimality(100, Optimality.Proof.LOWER_BOUND)), Verdict.Kind.METRIC_MISMATCH);
        invalid(withOptimality(optimality(140, Optimality.Proof.OPEN)), Verdict.Kind.METRIC_MISMATCH);
        Verdict v = PlanValidator.validate(withOptimality(optimality(139, Optimality.Proof.SEARCH)));
        assertThat(((Verdict.Invalid) v).violations()).hasSize(1).first().satisfies(x ->
                assertThat(x.detail()).contains("space g", "proof search", "lowerBound 139", "140",
                        "a proved optimum is the lower bound"));
        Verdict closed = PlanValidator.validate(withOptimality(optimality(140, Optimality.Proof.OPEN)));
        assertThat(((Verdict.Invalid) closed).violations()).hasSize(1).first().satisfies(x ->
                assertThat(x.detail()).contains("proof open", "an open bracket has its lower bound below"));
        // one check more per space that says what it proved
        Plan bare = edit(1, b -> buf("b", "g", 100, 40, 40, 4, 2, 3, Origin.TENSOR));
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 100, 0, 0, 0));
        m.put("l", new SpaceMetrics("local", OptionalLong.of(256), 240, 240, 0, 0, 16));
        Verdict without = PlanValidator.validate(new Plan(bare.target(), "w", SolverChoice.AUTO, m, bare.buffers(),
                bare.descriptors()));
        Verdict with = PlanValidator.validate(withOptimality(optimality(120, Optimality.Proof.OPEN)));
        assertThat(((Verdict.Valid) with).checks()).isEqualTo(((Verdict.Valid) without).checks() + 2);
    }

    @Test
    void descriptors() {
        Plan p = sound();
        // narrow: maxAddress 199, last-byte: [150, 250) passes it
        List<DescriptorEntry> far = List.of(new DescriptorEntry("a.tile.0", 0, "a", 150, 99, "g", "narrow"));
        invalid(withBuffers(p.buffers(), far), Verdict.Kind.BAD_DESCRIPTOR); // outside its tensor
        List<PlannedBuffer> moved = new ArrayList<>(p.buffers());
        moved.set(0, buf("a", "g", 400, 99, 100, 4, 0, 1, Origin.TENSOR));
        invalid(withBuffers(moved, List.of(new DescriptorEntry("a.tile.0", 0, "a", 400, 99, "g", "narrow"))),
                Verdict.Kind.NOT_ENCODABLE);
        invalid(withBuffers(p.buffers(), List.of(new DescriptorEntry("x.tile.0", 0, "x", 0, 1, "g", "narrow"))),
                Verdict.Kind.BAD_DESCRIPTOR);
    }
}
