package dev.berth.solve.exact;

import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The search recurses once per placed item: a placement of 12,000 items (a band in which each
 * item shares steps with the next fifty) is as deep as that, more than a thread's default stack
 * holds, and is found on one thread and on two.
 */
class ExactSolverDepthTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aSearchAsDeepAsTwelveThousandItemsFindsItsPlacement(int threads) {
        int n = 12_000;
        long[] size = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < n; i++) {
            first[i] = i;
            last[i] = i + 50;
            size[i] = 1 + rnd.nextInt(4);
        }
        SpaceProblem p = SpaceProblem.of(size, first, last, Long.MAX_VALUE);
        assertThat(Portfolio.stackFor(n)).isPositive();
        SpaceProblem q = p.withLimit(2 * p.lowerBound());
        ExactSolver s = new ExactSolver(ExactSolver.Settings.defaults().searchOnly().withThreads(threads));
        Outcome o = s.solve(q, Budget.unlimited());
        assertThat(o).as("outcome of the 12,000-item search").isInstanceOf(Outcome.Solved.class);
        assertThat(s.lastNodes()).isGreaterThanOrEqualTo(n);
        // the placement is valid: no two items that share a step share a byte (neighbours in the band)
        long[] off = ((Outcome.Solved) o).offsets();
        String clash = null;
        for (int i = 0; i < n && clash == null; i++) {
            if (off[i] + size[i] > q.limit()) {
                clash = i + " ends past the limit";
            }
            for (int j = i + 1; j < n && first[j] <= last[i] && clash == null; j++) {
                if (off[i] < off[j] + size[j] && off[j] < off[i] + size[i]) {
                    clash = i + " and " + j + " share a byte";
                }
            }
        }
        assertThat(clash).isNull();
    }
}
