package dev.berth.solve.exact;

import dev.berth.solve.Budget;
import dev.berth.solve.heuristic.HeuristicSolver;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The portfolio gives the same answer on one thread and on several (it is deterministic), with
 * and without a node limit, on problems large enough to run in parallel and tight enough to
 * need restarts; and every placement is valid.
 */
class ExactSolverPortfolioTest {

    /** 60-90 items over 40 steps, limit a little above the max-live lower bound. */
    private static SpaceProblem tight(SplittableRandom rnd) {
        int n = 60 + rnd.nextInt(31);
        long[] size = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        for (int i = 0; i < n; i++) {
            first[i] = rnd.nextInt(40);
            last[i] = Math.min(45, first[i] + rnd.nextInt(rnd.nextBoolean() ? 4 : 15));
            size[i] = 8 * (1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 40 : 8));
        }
        SpaceProblem loose = SpaceProblem.of(size, first, last, Long.MAX_VALUE);
        long lb = loose.lowerBound();
        long heuristic = ((Outcome.Solved) HeuristicSolver.greedyBySize().solve(loose, Budget.unlimited())).height();
        return loose.withLimit(lb + (heuristic - lb) * rnd.nextInt(3) / 40);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void sameAnswerOnOneThreadAndOnSeveral(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 3; round++) {
            SpaceProblem p = tight(rnd);
            // a first node limit of 3: many rounds, so restarts and cancellation are exercised
            ExactSolver.Settings base = new ExactSolver.Settings(false, List.of("WAT", "TAW", "TWA"), true, true, 3, 1);
            for (long maxNodes : new long[]{Long.MAX_VALUE, 100}) {
                ExactSolver one = new ExactSolver(base);
                ExactSolver two = new ExactSolver(base.withThreads(2));
                Outcome a = one.solve(p, Budget.seconds(60), maxNodes);
                Outcome b = two.solve(p, Budget.seconds(60), maxNodes);
                String what = "seed " + seed + " round " + round + " max nodes " + maxNodes + ": " + a + " / " + b;
                assertThat(b.getClass()).as(what).isEqualTo(a.getClass());
                if (a instanceof Outcome.Solved sa) {
                    assertThat(((Outcome.Solved) b).offsets()).as(what).isEqualTo(sa.offsets());
                    PlacementCheck.assertValid(p, sa, what);
                }
            }
        }
    }
}
