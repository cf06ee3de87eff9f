package dev.berth.plan;

import dev.berth.failure.BerthException;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.failure.Shortfall;
import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SolverKind;
import dev.berth.solve.SpaceProblem;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The capacity diagnosis returns facts: whether any placement can fit, what stopped the
 * search and what could help, as a {@link Shortfall}; its message states them and names no
 * command-line option (the command line adds its own advice).
 */
class DiagnosisTest {
    /** The teaching target's local space: capacity 55, alignment 10. */
    private static final Space LOCAL = new Space.Local("local", new AddressFormat("wide", 1023, EndConvention.EXCLUSIVE),
            10, 0, 55);
    private static final Failure.CapacityExceeded ADMISSION = new Failure.CapacityExceeded(
            "buffer b in space local: start 30 ...", Facts.NONE.withBuffer("b"), Shortfall.UNDIAGNOSED);

    /** Items of {@code size} bytes over {@code [first, last]}, fixed at {@code fixed} (-1: free). */
    private static SpaceProblem problem(long[] size, int[] first, int[] last, long[] fixed) {
        int n = size.length;
        String[] names = new String[n];
        long[] align = new long[n];
        for (int i = 0; i < n; i++) {
            names[i] = "b" + i;
            align[i] = fixed[i] >= 0 ? 1 : 10;
        }
        return new SpaceProblem(LOCAL, names, size, align, first, last, fixed, 55);
    }

    /** 10 fixed bytes in the middle of 55 and 30 more bytes at the same step: 40 bytes fit, no placement does. */
    private static SpaceProblem fragmented() {
        return problem(new long[]{10, 30}, new int[]{0, 0}, new int[]{0, 0}, new long[]{20, -1});
    }

    private static Failure.CapacityExceeded diagnose(SpaceProblem p, Optional<Outcome> exact) {
        return diagnose(p, exact, false);
    }

    private static Failure.CapacityExceeded diagnose(SpaceProblem p, Optional<Outcome> exact, boolean clockStopped) {
        BerthException e = Diagnosis.capacity(LOCAL, p, ADMISSION, new SpaceOutcome(new long[p.size()],
                SolverKind.GREEDY, 60, exact, 0, 0, Optional.empty(), clockStopped), Budget.seconds(10));
        Failure.CapacityExceeded ce = (Failure.CapacityExceeded) e.failure();
        assertThat(ce.message()).startsWith(ADMISSION.message()).doesNotContain("--");
        assertThat(ce.facts()).isEqualTo(ADMISSION.facts());
        return ce;
    }

    @Test
    void bytesLiveAtOneStepPastTheCapacityFitNoPlacement() {
        SpaceProblem p = problem(new long[]{30, 30, 10}, new int[]{0, 1, 2}, new int[]{1, 1, 2}, new long[]{-1, -1, -1});
        Failure.CapacityExceeded ce = diagnose(p, Optional.empty());
        assertThat(ce.shortfall()).isEqualTo(new Shortfall.LiveBytesExceed(1, 60, 55));
        assertThat(ce.shortfall().remedy()).isEmpty();
        assertThat(ce.message()).contains("at step 1 the live reservations need 60 bytes but 55 are available")
                .contains("5 bytes over");
    }

    @Test
    void aProofIsAFactAndNothingElseCanHelp() {
        Failure.CapacityExceeded ce = diagnose(fragmented(), Optional.of(new Outcome.Infeasible("proved")));
        assertThat(ce.shortfall()).isInstanceOf(Shortfall.ProvedInfeasible.class);
        assertThat(ce.infeasibleSubset()).containsExactlyInAnyOrder("b0", "b1");
        assertThat(ce.shortfall().remedy()).isEmpty();
        assertThat(ce.message()).contains("(peak 40 of 55 at step 0)").contains("a complete search proved");
    }

    @Test
    void aSearchTheClockStoppedCouldUseMoreTime() {
        Failure.CapacityExceeded ce = diagnose(fragmented(), Optional.of(new Outcome.Unknown("time limit")), true);
        assertThat(ce.shortfall()).isEqualTo(new Shortfall.SearchStopped("greedy", 60, "time limit", true));
        assertThat(ce.shortfall().remedy()).hasValue(Shortfall.Remedy.MORE_TIME);
        assertThat(ce.message()).endsWith("the greedy placement reached 60 and the exact search stopped without a "
                + "placement or a proof (time limit)");
    }

    @Test
    void aSearchItsWorkBudgetStoppedCouldUseMoreWork() {
        Failure.CapacityExceeded ce = diagnose(fragmented(), Optional.of(new Outcome.Unknown("node limit")), false);
        assertThat(ce.shortfall()).isEqualTo(new Shortfall.SearchStopped("greedy", 60, "node limit", false));
        assertThat(ce.shortfall().remedy()).hasValue(Shortfall.Remedy.MORE_WORK);
        assertThat(ce.message()).doesNotContain("--");
    }

    @Test
    void withoutACompleteSearchTheExactSearchCouldHelp() {
        Failure.CapacityExceeded ce = diagnose(fragmented(), Optional.empty());
        assertThat(ce.shortfall()).isEqualTo(new Shortfall.NoCompleteSearch("greedy", 60));
        assertThat(ce.shortfall().remedy()).hasValue(Shortfall.Remedy.COMPLETE_SEARCH);
        assertThat(ce.message()).endsWith("the greedy placement reached 60");
        assertThat(ce.provablyInfeasible()).isFalse();
        assertThat(ce.infeasibleSubset()).isEqualTo(List.of());
    }

    @Test
    void aFixedRegionEndingPastTheCapacityFitsNoPlacementAndNothingCanHelp() {
        // 20 bytes fixed at 40 end at 60, past 55, though only 30 bytes are ever live
        SpaceProblem p = problem(new long[]{20, 10}, new int[]{0, 0}, new int[]{1, 1}, new long[]{40, -1});
        Failure.CapacityExceeded ce = diagnose(p, Optional.empty());
        assertThat(ce.shortfall()).isEqualTo(new Shortfall.FixedPastCapacity("b0", 40, 20, 55));
        assertThat(ce.shortfall().remedy()).isEmpty();
        assertThat(ce.provablyInfeasible()).isTrue();
        assertThat(ce.step()).isEmpty();
        assertThat(ce.message()).contains("the fixed region b0 sits at 40 (20 bytes reserved), where the input put it, "
                + "and ends at 60, past the 55 bytes available");
    }
}
