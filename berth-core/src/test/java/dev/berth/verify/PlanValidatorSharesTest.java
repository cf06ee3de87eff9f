package dev.berth.verify;

import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.BerthException;
import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Operator;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The validator on plans with an operator order (version 4): an overlap is accepted only for a
 * declared pair at its writer's step, the steps re-derived from the order alone.
 */
class PlanValidatorSharesTest {
    private static final AddressFormat F = new AddressFormat("f", 9999, EndConvention.EXCLUSIVE);
    private static final Target T = new Target("t", Map.of("f", F), Map.of("g", new Space.Logical("g", F, 4, 0)),
            Optional.empty());
    private static final List<Operator> ORDER = List.of(new Operator("conv", List.of("x"), List.of("a")),
            new Operator("relu", List.of("a"), List.of("b")), new Operator("flat", List.of("b"), List.of("y")));

    private static PlannedBuffer buf(String name, long offset, long reserved, int first, int last) {
        return new PlannedBuffer(name, "g", offset, reserved, reserved, 4, new Lifetime(first, last), Origin.TENSOR,
                Optional.empty());
    }

    /** x [0,40) step 0; a [100,200) 0..1; b over a 1..2; y [0,40) step 2. Peak 140 (steps 0 and 2). */
    private static List<PlannedBuffer> sound() {
        return List.of(buf("x", 0, 40, 0, 0), buf("a", 100, 100, 0, 1), buf("b", 100, 100, 1, 2).sharing("a"),
                buf("y", 0, 40, 2, 2));
    }

    private static Plan plan(List<PlannedBuffer> bs, List<Operator> order, long peak) {
        long high = bs.stream().mapToLong(b -> b.offset() + b.reserved()).max().orElse(0);
        SpaceMetrics m = new SpaceMetrics("logical", OptionalLong.empty(), high, peak, 0, 0, 0, Optional.of(
                new Optimality(SolverKind.GREEDY, peak, peak == high ? Optimality.Proof.LOWER_BOUND : Optimality.Proof.OPEN,
                        peak == high ? Optional.empty() : Optional.of(Optimality.Open.HEURISTIC), false)));
        return new Plan(T, "w", SolverChoice.AUTO, Map.of("g", m), bs, List.of(), Optional.empty(), Optional.of(order));
    }

    private static Plan edit(int i, UnaryOperator<PlannedBuffer> f) {
        List<PlannedBuffer> bs = new ArrayList<>(sound());
        bs.set(i, f.apply(bs.get(i)));
        return plan(bs, ORDER, 140);
    }

    private static List<String> violations(Plan p) {
        return PlanValidatorTest.violations(p);
    }

    @Test
    void aDeclaredPairAtItsWritersStepIsValid() {
        Plan p = plan(sound(), ORDER, 140);
        assertThat(p.version()).isEqualTo(4);
        assertThat(violations(p)).isEmpty();
        // the pair's output counts from the step after its writer's: at step 1 only a's 100 bytes, not 200
        assertThat(violations(plan(sound(), ORDER, 200))).contains(
                "METRIC_MISMATCH: space g: peakLive is 200 in the plan, but the reservations give 140");
    }

    @Test
    void anOverlapOutsideADeclaredPairIsRejected() {
        Plan p = edit(2, b -> buf("b", 100, 100, 1, 2));
        assertThat(violations(p)).anyMatch(v -> v.startsWith("OVERLAP: in space g, a [100, +100) steps [0, 1] overlaps b"));
    }

    @Test
    void aPairWhoseInputIsStillLiveAfterTheWritersStepIsRejected() {
        assertThat(violations(edit(1, a -> buf("a", 100, 100, 0, 2)))).contains(
                "BAD_SHARE: b shares with a: a is live over steps [0, 2]: after step 1, where b is written over it")
                .anyMatch(v -> v.startsWith("OVERLAP:"));
        List<Operator> laterReader = List.of(ORDER.get(0), ORDER.get(1),
                new Operator("flat", List.of("b", "a"), List.of("y")));
        List<PlannedBuffer> bs = new ArrayList<>(sound());
        bs.set(1, buf("a", 100, 100, 0, 2));
        assertThat(violations(plan(bs, laterReader, 140))).contains(
                "BAD_SHARE: b shares with a: a is read at step 2, after b is written over it at step 1: it does not die there");
    }

    @Test
    void aPairOfDifferentOperatorsIsRejected() {
        List<PlannedBuffer> bs = List.of(buf("x", 0, 40, 0, 0), buf("a", 100, 100, 0, 1), buf("b", 0, 40, 1, 2).sharing("x"),
                buf("y", 100, 40, 2, 2));
        assertThat(violations(plan(bs, ORDER, 140))).contains(
                "BAD_SHARE: b shares with x: relu writes b at step 1 but does not read x: a pair is an output and an input of one operator");
    }

    @Test
    void aPairAtAnotherOffsetOrLargerThanItsInputIsRejected() {
        assertThat(violations(edit(2, b -> buf("b", 104, 96, 1, 2).sharing("a")))).contains(
                "BAD_SHARE: b shares with a: b [104, +96) and a [100, +100): a pair begins at one offset, the output within the input");
        assertThat(violations(edit(2, b -> buf("b", 100, 104, 1, 2).sharing("a")))).anyMatch(v -> v.startsWith("BAD_SHARE"));
    }

    @Test
    void stepsAreReDerivedFromTheOrder() {
        // a is written at step 0 by conv: live from step 1 leaves conv's output without bytes
        assertThat(violations(edit(1, a -> buf("a", 100, 100, 1, 1)))).contains(
                "BAD_ORDER: a is live over steps [1, 1], but the order needs it over [0, 1] (from its writer to its last reader)");
        List<Operator> unknown = List.of(ORDER.get(0), ORDER.get(1), new Operator("flat", List.of("b", "z"), List.of("y")));
        assertThat(violations(plan(sound(), unknown, 140))).contains(
                "BAD_ORDER: order[2]: flat reads z, which is no tensor of the plan");
        List<Operator> early = List.of(new Operator("relu", List.of("a"), List.of("b")), ORDER.get(0), ORDER.get(2));
        assertThat(violations(plan(sound(), early, 140))).anyMatch(v -> v.startsWith(
                "BAD_ORDER: order[0]: relu reads a at step 0, but it is written at step 1"));
    }

    @Test
    void sharesWithNeedsAnOrder() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Plan(T, "w", SolverChoice.AUTO,
                        plan(sound(), ORDER, 140).spaces(), sound(), List.of()))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.failure().message())
                        .startsWith("buffers[2].sharesWith: a plan without an operator order"));
    }
}
