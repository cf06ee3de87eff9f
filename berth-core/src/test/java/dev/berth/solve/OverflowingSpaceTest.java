package dev.berth.solve;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.plan.Solvers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Items whose bytes live together pass 2^63-1: no solver returns a placement it cannot
 * represent (an offset or a height saturated at 2^63-1). The heuristics and the skyline fail
 * with {@code arithmetic-overflow}; the exact search proves that nothing fits, with a reason
 * that does not contradict itself.
 */
class OverflowingSpaceTest {
    private static final long MAX = Long.MAX_VALUE;

    @ParameterizedTest
    @EnumSource(value = SolverKind.class, names = {"GREEDY", "BEST_FIT", "SKYLINE"})
    void aHeuristicRefusesToPlaceBytesItsIntegersCannotHold(SolverKind kind) {
        SpaceProblem p = SpaceProblem.of(new long[]{MAX, MAX}, new int[]{0, 0}, new int[]{0, 0}, MAX);
        assertThatThrownBy(() -> Solvers.of(kind, 1).solve(p, Budget.unlimited()))
                .isInstanceOfSatisfying(BerthException.class,
                        e -> assertThat(e.category()).isEqualTo(Category.ARITHMETIC_OVERFLOW))
                .hasMessageContaining("2^63-1");
    }

    @ParameterizedTest
    @EnumSource(value = SolverKind.class, names = {"GREEDY", "BEST_FIT", "SKYLINE"})
    void bytesThatFitSideBySideArePlaced(SolverKind kind) {
        // two items that end exactly at 2^63-1 together: representable, so placed
        long half = MAX / 2;
        SpaceProblem p = SpaceProblem.of(new long[]{half, MAX - half}, new int[]{0, 0}, new int[]{0, 0}, MAX);
        Outcome o = Solvers.of(kind, 1).solve(p, Budget.unlimited());
        assertThat(o).isInstanceOfSatisfying(Outcome.Solved.class, s -> assertThat(s.height()).isEqualTo(MAX));
    }

    @org.junit.jupiter.api.Test
    void theExactSearchSaysNothingFitsWithoutContradictingItself() {
        SpaceProblem p = SpaceProblem.of(new long[]{MAX - 5, 10}, new int[]{0, 0}, new int[]{0, 0}, MAX);
        Outcome o = Solvers.of(SolverKind.EXACT, 1).solve(p, Budget.unlimited());
        assertThat(o).isInstanceOfSatisfying(Outcome.Infeasible.class, inf -> assertThat(inf.reason())
                .contains("2^63-1 bytes or more", "more than the limit 9223372036854775806",
                        "the limit 9223372036854775807 rounded down to a multiple of 2"));
    }
}
