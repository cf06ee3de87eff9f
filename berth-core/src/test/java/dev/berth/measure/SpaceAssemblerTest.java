package dev.berth.measure;

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
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The one rule of what is proved about a space's high-water mark, branch by branch, each result
 * checked by the plan validator as a plan of the measured entries; and the metrics the assembler
 * measures.
 */
class SpaceAssemblerTest {
    private static final AddressFormat F = new AddressFormat("f", 9999, EndConvention.EXCLUSIVE);
    private static final Space G = new Space.Logical("g", F, 1, 8);
    private static final Target T = new Target("t", Map.of("f", F), Map.of("g", G), Optional.empty());

    private static PlannedBuffer b(String name, long offset, long reserved, int first, int last) {
        return new PlannedBuffer(name, "g", offset, reserved, reserved, 1, new Lifetime(first, last), Origin.TENSOR,
                Optional.empty());
    }

    /** a [0,100) step 0, b [100,150) steps 1-2, c [0,40) step 2: high-water 150, peak 100 at step 0. */
    private static final List<PlannedBuffer> APART = List.of(b("a", 0, 100, 0, 0), b("b", 100, 50, 1, 2),
            b("c", 0, 40, 2, 2));
    /** a [0,100) steps 0-1, b [100,150) step 1: high-water 150 = peak at step 1. */
    private static final List<PlannedBuffer> TIGHT = List.of(b("a", 0, 100, 0, 1), b("b", 100, 50, 1, 1));

    private static SpaceAssembler.Known known(long staticLower, long provedLower, Optimality.Open open) {
        return new SpaceAssembler.Known(SolverKind.EXACT, staticLower, provedLower, open, false);
    }

    /** The metrics with what {@code k} proves, after the validator accepted them as a plan of {@code entries}. */
    private static SpaceMetrics assembled(List<PlannedBuffer> entries, SpaceAssembler.Known k) {
        SpaceMetrics m = SpaceAssembler.metrics(G, entries, Optional.of(k));
        Plan plan = new Plan(T, "w", SolverChoice.AUTO, Map.of("g", m), entries, List.of());
        Verdict v = PlanValidator.validate(plan);
        assertThat(v).as("%s: %s", m, v).isInstanceOf(Verdict.Valid.class);
        return m;
    }

    private static Optimality proof(List<PlannedBuffer> entries, SpaceAssembler.Known k) {
        return assembled(entries, k).optimality().orElseThrow();
    }

    @Test
    void theMetricsAreTheEntriesMeasuredAndTheSpacesOwnFigures() {
        SpaceMetrics m = SpaceAssembler.metrics(G, APART, Optional.empty());
        SpaceUse use = SpaceUse.of(APART);
        assertThat(m).isEqualTo(new SpaceMetrics("logical", OptionalLong.empty(), 150, 100, 0, 0, 8, Optional.empty()));
        assertThat(m.highWater()).isEqualTo(use.highWater());
        assertThat(m.peakLive()).isEqualTo(use.peak().bytes());
        assertThat(m.peakStep()).isEqualTo(use.peak().step());
    }

    @Test
    void theStaticBoundReachingTheHighWaterMarkIsAProofByLowerBound() {
        Optimality o = proof(APART, known(150, 150, Optimality.Open.WORK_BUDGET));
        assertThat(o).isEqualTo(new Optimality(SolverKind.EXACT, 150, Optimality.Proof.LOWER_BOUND, Optional.empty(),
                false));
    }

    @Test
    void thePeakOfLiveBytesReachingItIsAProofByLowerBoundWhateverTheBoundsSay() {
        // the bounds known are below the entries' own peak (an in-place pair placed apart raises it)
        Optimality o = proof(TIGHT, known(0, 120, Optimality.Open.HEURISTIC));
        assertThat(o.proof()).isEqualTo(Optimality.Proof.LOWER_BOUND);
        assertThat(o.lowerBound()).isEqualTo(150);
    }

    @Test
    void theProvedBoundAloneReachingItIsAProofBySearch() {
        Optimality o = proof(APART, known(100, 150, Optimality.Open.WORK_BUDGET));
        assertThat(o).isEqualTo(new Optimality(SolverKind.EXACT, 150, Optimality.Proof.SEARCH, Optional.empty(),
                false));
        // a bound past the high-water mark proves it too, and the bound stated is the mark itself
        assertThat(proof(APART, known(100, 400, Optimality.Open.WORK_BUDGET)).lowerBound()).isEqualTo(150);
    }

    @Test
    void belowTheHighWaterMarkTheBracketIsOpenForTheKnownReasonFromTheProvedBound() {
        Optimality o = proof(APART, known(100, 120, Optimality.Open.SIZE));
        assertThat(o).isEqualTo(new Optimality(SolverKind.EXACT, 120, Optimality.Proof.OPEN,
                Optional.of(Optimality.Open.SIZE), false));
        // never below the peak of live bytes: bounds under it open the bracket at the peak
        assertThat(proof(APART, known(0, 30, Optimality.Open.HEURISTIC)).lowerBound()).isEqualTo(100);
    }

    @Test
    void aBracketTheClockLeftOpenIsTimeLimitedAndAProofKeepsWhatTheSearchSaid() {
        assertThat(proof(APART, known(100, 120, Optimality.Open.TIME_LIMIT)).timeLimited()).isTrue();
        assertThat(proof(APART, known(100, 120, Optimality.Open.WORK_BUDGET)).timeLimited()).isFalse();
        SpaceAssembler.Known hurried = new SpaceAssembler.Known(SolverKind.SKYLINE, 100, 150,
                Optimality.Open.WORK_BUDGET, true);
        assertThat(proof(APART, hurried)).isEqualTo(new Optimality(SolverKind.SKYLINE, 150, Optimality.Proof.SEARCH,
                Optional.empty(), true));
    }

    @Test
    void theBoundsAreCarriedThroughTheGenerationTimeAllocationsAtTheirAlignedTop() {
        // a [0,100) step 0, c [0,100) step 1; instructions of 32 bytes at 16-byte alignment above them,
        // at 112, step 2: high-water 144, peak 100
        PlannedBuffer instructions = new PlannedBuffer("instructions", "g", 112, 32, 32, 16, new Lifetime(2, 2),
                Origin.INSTRUCTIONS, Optional.empty());
        List<PlannedBuffer> entries = List.of(b("a", 0, 100, 0, 0), b("c", 0, 100, 1, 1), instructions);
        SpaceMetrics m = assembled(entries, known(90, 100, Optimality.Open.WORK_BUDGET));
        assertThat(m.highWater()).isEqualTo(144);
        assertThat(m.peakLive()).isEqualTo(100);
        assertThat(m.generationOverhead()).isEqualTo(32);
        // proved 100 -> aligned 112 + 32 = 144 reaches the mark; static 90 -> 96 + 32 = 128 does not
        assertThat(m.optimality().orElseThrow()).isEqualTo(new Optimality(SolverKind.EXACT, 144,
                Optimality.Proof.SEARCH, Optional.empty(), false));
        assertThat(proof(entries, known(100, 100, Optimality.Open.WORK_BUDGET)).proof())
                .isEqualTo(Optimality.Proof.LOWER_BOUND);
        // proved 80 -> 80 + 32 = 112: open there, above the peak
        assertThat(proof(entries, known(80, 80, Optimality.Open.WORK_BUDGET)).lowerBound()).isEqualTo(112);
    }

    /** Whatever is known, the bound lies between the peak of live bytes and the high-water mark, equal to it when proved. */
    @Test
    void everyResultIsWithinTheValidatorsCheck() {
        Random r = new Random(25);
        for (int round = 0; round < 300; round++) {
            List<PlannedBuffer> entries = new ArrayList<>();
            long top = 0;
            for (int i = 0; i < 1 + r.nextInt(5); i++) {
                // stacked, so that no two overlap: the peak of live bytes is at most the high-water mark
                int first = r.nextInt(4);
                long reserved = r.nextInt(100);
                entries.add(b("b" + i, top + r.nextInt(20), reserved, first, first + r.nextInt(3)));
                top = entries.get(i).offset() + reserved;
            }
            long staticLower = r.nextInt(300);
            SpaceAssembler.Known k = known(staticLower, staticLower + r.nextInt(100),
                    Optimality.Open.values()[r.nextInt(Optimality.Open.values().length)]);
            SpaceMetrics m = SpaceAssembler.metrics(G, entries, Optional.of(k));
            Optimality o = m.optimality().orElseThrow();
            assertThat(o.lowerBound()).isBetween(m.peakLive(), m.highWater());
            assertThat(o.optimal()).isEqualTo(o.lowerBound() == m.highWater());
            assertThat(o.optimal()).isEqualTo(Math.max(m.peakLive(), k.provedLower()) >= m.highWater());
        }
    }

    @Test
    void aVersion1SpaceKeepsItsStatedFiguresAndGetsThePeakStepOfItsEntries() {
        SpaceMetrics stated = new SpaceMetrics("logical", OptionalLong.empty(), 999, 777, -1, 5, 8);
        SpaceMetrics m = SpaceAssembler.withPeakStep(stated, TIGHT);
        assertThat(m).isEqualTo(new SpaceMetrics("logical", OptionalLong.empty(), 999, 777, 1, 5, 8));
        assertThat(m.peakStep()).isEqualTo(SpaceAssembler.metrics(G, TIGHT, Optional.empty()).peakStep());
    }

    @Test
    void whatIsKnownChecksItself() {
        assertThatThrownBy(() -> new SpaceAssembler.Known(SolverKind.EXACT, -1, 0, Optimality.Open.SIZE, false))
                .isInstanceOf(BerthException.class).hasMessageContaining("staticLower");
        assertThatThrownBy(() -> new SpaceAssembler.Known(SolverKind.EXACT, 0, -1, Optimality.Open.SIZE, false))
                .isInstanceOf(BerthException.class).hasMessageContaining("provedLower");
        assertThatThrownBy(() -> new SpaceAssembler.Known(null, 0, 0, Optimality.Open.SIZE, false))
                .isInstanceOf(NullPointerException.class).hasMessage("solver");
        assertThatThrownBy(() -> new SpaceAssembler.Known(SolverKind.EXACT, 0, 0, null, false))
                .isInstanceOf(NullPointerException.class).hasMessage("open");
    }
}
