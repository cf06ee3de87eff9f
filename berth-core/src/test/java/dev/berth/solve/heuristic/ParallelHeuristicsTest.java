package dev.berth.solve.heuristic;

import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Best fit and greedy side by side on two threads give exactly the placements each gives alone:
 * the plan does not depend on the threads allowed or the processors present.
 */
class ParallelHeuristicsTest {
    private static SpaceProblem random(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] sizes = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        for (int i = 0; i < n; i++) {
            sizes[i] = 1 + r.nextInt(1 << 16);
            first[i] = r.nextInt(n / 2);
            last[i] = first[i] + r.nextInt(1 + r.nextInt(64));
        }
        return SpaceProblem.of(sizes, first, last, Long.MAX_VALUE);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void sideBySideIsTheSameAsOneAfterTheOther(long seed) {
        int n = HeuristicSolver.SIDE_BY_SIDE_FROM + 1000;
        SpaceProblem p = random(n, seed);
        List<Outcome.Solved> parallel = HeuristicSolver.bestFitAndGreedy(p, Budget.unlimited(), 2);
        List<Outcome.Solved> sequential = HeuristicSolver.bestFitAndGreedy(p, Budget.unlimited(), 1);
        Outcome.Solved bestFit = (Outcome.Solved) HeuristicSolver.bestFit().solve(p, Budget.unlimited());
        Outcome.Solved greedy = (Outcome.Solved) HeuristicSolver.greedyBySize().solve(p, Budget.unlimited());
        for (List<Outcome.Solved> r : List.of(parallel, sequential)) {
            assertThat(r.get(0).offsets()).isEqualTo(bestFit.offsets());
            assertThat(r.get(0).height()).isEqualTo(bestFit.height());
            assertThat(r.get(1).offsets()).isEqualTo(greedy.offsets());
            assertThat(r.get(1).height()).isEqualTo(greedy.height());
        }
        // the two heuristics differ on such an instance: the test would see them swapped
        assertThat(bestFit.offsets()).isNotEqualTo(greedy.offsets());
    }
}
