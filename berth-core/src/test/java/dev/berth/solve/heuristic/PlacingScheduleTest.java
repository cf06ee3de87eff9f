package dev.berth.solve.heuristic;

import dev.berth.solve.SpaceProblem;
import dev.berth.solve.Outcome;
import dev.berth.solve.Budget;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The placing schedule keeps the rank order of every pair that shares a step, and the heuristics
 * placed by it give exactly the placement of the plain rank order, for chunks from 1 item to
 * more than the problem.
 */
class PlacingScheduleTest {

    private static SpaceProblem random(SplittableRandom rnd, int n) {
        return HeuristicReferenceTest.random(rnd, n);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void keepsTheRankOrderOfEveryPairSharingAStep(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 20; round++) {
            int n = 1 + rnd.nextInt(400);
            SpaceProblem p = random(rnd, n);
            OccupancyTree index = new OccupancyTree(p, HeuristicSolver.order(p));
            long[] steps = index.steps();
            int chunk = 1 + rnd.nextInt(n + 10);
            int[] schedule = PlacingSchedule.of(steps, chunk);
            int[] when = new int[n];
            Arrays.fill(when, -1);
            for (int t = 0; t < n; t++) {
                assertThat(when[schedule[t]]).as("position %d scheduled twice", schedule[t]).isEqualTo(-1);
                when[schedule[t]] = t;
            }
            for (int x = 0; x < n; x++) {
                for (int y = x + 1; y < n; y++) {
                    boolean share = (steps[x] >>> 32) <= (steps[y] & 0xFFFF_FFFFL)
                            && (steps[y] >>> 32) <= (steps[x] & 0xFFFF_FFFFL);
                    if (share && when[x] > when[y]) {
                        throw new AssertionError("seed " + seed + " round " + round + " chunk " + chunk + ": rank " + y
                                + " placed before rank " + x + ", which shares a step with it");
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {11, 12, 13, 14})
    void theHeuristicsPlaceExactlyAsInRankOrder(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int sweeps = 0;
        for (int round = 0; round < 15; round++) {
            int n = 1 + rnd.nextInt(1500);
            SpaceProblem p = random(rnd, n);
            for (boolean bestFit : new boolean[]{false, true}) {
                Outcome.Solved plain = (Outcome.Solved) new HeuristicSolver(bestFit, Integer.MAX_VALUE)
                        .solve(p, Budget.unlimited());
                for (int chunk : new int[]{1, 7, 1 + rnd.nextInt(n)}) {
                    Outcome.Solved swept = (Outcome.Solved) new HeuristicSolver(bestFit, chunk).solve(p, Budget.unlimited());
                    assertThat(swept.offsets()).as("seed %d round %d chunk %d best-fit %s", seed, round, chunk, bestFit)
                            .containsExactly(plain.offsets());
                    assertThat(swept.height()).isEqualTo(plain.height());
                    sweeps += chunk < n ? 1 : 0;
                }
            }
        }
        assertThat(sweeps).isGreaterThan(50);
    }

    @org.junit.jupiter.api.Test
    void chunksWhoseItemsAllShareStepsStayInRankOrder() {
        // 400 weights live over every step: every pair shares a step (far past the pair budget, so the
        // chunks take their rank order without listing pairs)
        int n = 400;
        long[] steps = new long[n];
        for (int k = 0; k < n; k++) {
            steps[k] = (k % 2 == 0) ? 5L << 32 | 90 : 3L << 32 | 100;
        }
        int[] schedule = PlacingSchedule.of(steps, 128);
        int[] rankOrder = IntStream.range(0, n).toArray();
        assertThat(schedule).containsExactly(rankOrder);
        // while a chunk of thinly spread items is swept by first step
        long[] spread = new long[n];
        for (int k = 0; k < n; k++) {
            long first = (long) (n - k) * 10;
            spread[k] = first << 32 | (first + 1);
        }
        int[] swept = PlacingSchedule.of(spread, 128);
        assertThat(swept[0]).isEqualTo(127);
        assertThat(swept).isNotEqualTo(rankOrder);
    }
}
