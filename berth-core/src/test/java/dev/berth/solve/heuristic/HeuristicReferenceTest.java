package dev.berth.solve.heuristic;

import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Greedy by size and best fit against their definition, computed the slow way: each item in
 * rank order placed by the gap search over the byte ranges of every placed item that shares a
 * step with it, found by a scan of all of them (what the heuristics did before the occupancy
 * tree). Same offsets for every item, on seeded problems with long and short lifetimes, sparse
 * and dense steps, alignment, fixed items, zero sizes and many equal sizes; in rank order and
 * through placing schedules of small chunks.
 */
class HeuristicReferenceTest {

    /**
     * A seeded problem: dense or sparse steps, short lifetimes and some up to twice the span (or
     * many of those), sizes in few values (ties) or many, some aligned, some fixed, some empty.
     */
    static SpaceProblem random(SplittableRandom rnd, int n) {
        int span = 1 + rnd.nextInt(2 * n);
        int spread = rnd.nextBoolean() ? 1 : 1 + rnd.nextInt(100_000);
        // some problems with many long lifetimes (thousands of items live at a step, as in IOPDDL's graphs)
        int longShare = rnd.nextBoolean() ? 1 : 5;
        long[] size = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        long[] align = new long[n];
        long[] fixed = new long[n];
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            int kind = rnd.nextInt(10);
            first[i] = rnd.nextInt(span);
            int len = kind < 7 - longShare ? 1 + rnd.nextInt(4) : kind < 9 ? 1 + rnd.nextInt(50)
                    : 1 + rnd.nextInt(2 * span);
            last[i] = (first[i] + len - 1) * spread;
            first[i] *= spread;
            size[i] = rnd.nextInt(10) == 0 ? 0 : rnd.nextBoolean() ? 16L * (1 + rnd.nextInt(12))
                    : 1 + rnd.nextInt(100_000);
            align[i] = rnd.nextInt(4) == 0 ? 1L << rnd.nextInt(8) : 1;
            fixed[i] = rnd.nextInt(40) == 0 ? 64L * rnd.nextInt(8) : -1;
            names[i] = "b" + i;
        }
        return new SpaceProblem(null, names, size, align, first, last, fixed, Long.MAX_VALUE);
    }

    /** The heuristic by its definition: every placed item scanned for each item. */
    static long[] reference(SpaceProblem p, boolean bestFit) {
        int n = p.size();
        int[] order = HeuristicSolver.order(p);
        long[] offset = new long[n];
        boolean[] placed = new boolean[n];
        long[] starts = new long[n];
        long[] ends = new long[n];
        long height = 0;
        for (int i : order) {
            long at;
            if (p.isFixed(i)) {
                at = p.fixedOffset(i);
            } else {
                int m = 0;
                for (int j = 0; j < n; j++) {
                    if (placed[j] && p.reserved(j) > 0 && p.overlapInTime(i, j)) {
                        starts[m] = offset[j];
                        ends[m++] = offset[j] + p.reserved(j);
                    }
                }
                Sorting.sortByKey(starts, ends, m);
                at = bestFit ? HeuristicSolver.bestGap(starts, ends, m, p.reserved(i), p.alignment(i))
                        : HeuristicSolver.firstGap(starts, ends, m, p.reserved(i), p.alignment(i));
            }
            offset[i] = at;
            placed[i] = true;
            height = Math.max(height, at + p.reserved(i));
        }
        return offset;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void placeEveryItemWhereTheirDefinitionDoes(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int compared = 0;
        for (int round = 0; round < 10; round++) {
            int n = 1 + rnd.nextInt(600);
            SpaceProblem p = random(rnd, n);
            for (boolean bestFit : new boolean[]{false, true}) {
                long[] want = reference(p, bestFit);
                // the rank order, and a schedule of small chunks (sweeping from more than 4 chunks)
                for (int chunk : new int[]{PlacingSchedule.CHUNK, 1 + rnd.nextInt(Math.max(1, n / 5))}) {
                    Outcome.Solved got = (Outcome.Solved) new HeuristicSolver(bestFit, chunk).solve(p, Budget.unlimited());
                    assertThat(got.offsets()).as("seed %d round %d %s chunk %d", seed, round,
                            bestFit ? "best fit" : "greedy", chunk).containsExactly(want);
                    compared++;
                }
            }
        }
        assertThat(compared).isEqualTo(40);
    }

    /**
     * Past the clock's deadline the loop stops at its next look at the clock: the items placed
     * before it are where the definition puts them, every later one lies above everything placed
     * before it, and the budget records that the clock stopped the search.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void stopAtTheDeadlineWithTheRestOnTop(boolean bestFit) {
        SplittableRandom rnd = new SplittableRandom(21);
        SpaceProblem p;
        do {
            p = random(rnd, 3 * HeuristicSolver.POLL);
        } while (p.isFixed(HeuristicSolver.order(p)[HeuristicSolver.POLL - 1]));
        long[] want = reference(p, bestFit);
        Budget budget = Budget.seconds(1e-9);
        long[] got = ((Outcome.Solved) new HeuristicSolver(bestFit, PlacingSchedule.CHUNK).solve(p, budget)).offsets();
        assertThat(budget.stoppedByClock()).isTrue();
        int[] order = HeuristicSolver.order(p);
        long height = 0;
        int stacked = 0;
        for (int t = 0; t < order.length; t++) {
            int i = order[t];
            if (t < HeuristicSolver.POLL - 1 || p.isFixed(i)) {
                assertThat(got[i]).as("rank %d", t).isEqualTo(want[i]);
            } else {
                assertThat(got[i]).as("rank %d on top", t).isGreaterThanOrEqualTo(height);
                stacked++;
            }
            height = Math.max(height, got[i] + p.reserved(i));
        }
        assertThat(stacked).isGreaterThan(HeuristicSolver.POLL);
    }
}
