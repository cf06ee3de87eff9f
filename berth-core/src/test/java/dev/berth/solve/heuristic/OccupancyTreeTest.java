package dev.berth.solve.heuristic;

import dev.berth.solve.SpaceProblem;
import dev.berth.solve.Solver;
import dev.berth.solve.Outcome;
import dev.berth.solve.Budget;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The occupancy tree against a scan of every recorded item: for every query, intervals sorted by
 * start whose union is the union of the byte ranges of the recorded items that share a step with
 * it, with lifetimes from one step to the whole span (so items are canonical at every level),
 * repeated steps, zero sizes, overlapping and touching ranges, and items recorded as they are
 * placed. Then the heuristics' placements are checked for overlaps on the same problems.
 */
class OccupancyTreeTest {

    /**
     * Half the problems have dense steps (ranked by counting), half sparse ones, up to 10^6
     * times further apart (ranked by sorting).
     */
    private static SpaceProblem random(SplittableRandom rnd, int n) {
        int span = 1 + rnd.nextInt(3 * n);
        int spread = rnd.nextBoolean() ? 1 : 1 + rnd.nextInt(1_000_000);
        long[] size = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        for (int i = 0; i < n; i++) {
            int kind = rnd.nextInt(10);
            first[i] = rnd.nextInt(span);
            int len = kind < 6 ? 1 + rnd.nextInt(3) : kind < 9 ? 1 + rnd.nextInt(60) : 1 + rnd.nextInt(3 * span);
            last[i] = (int) Math.min(Integer.MAX_VALUE, ((long) first[i] + len - 1) * spread);
            first[i] = (int) Math.min(last[i], (long) first[i] * spread);
            size[i] = rnd.nextInt(8) == 0 ? 0 : 1 + rnd.nextInt(1000);
        }
        return SpaceProblem.of(size, first, last, Long.MAX_VALUE);
    }

    private static int[] shuffled(SplittableRandom rnd, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return a;
    }

    /**
     * {@code firstFit}, which reads the unions without gathering them, finds the offset that
     * {@code firstGap} finds in the gathered intervals, for every query: sizes from 0 to more than
     * the byte range, alignments 1 to 4096, in ranges that overlap and touch often.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void firstFitFindsTheGapFirstGapFindsInTheGathering(int seed) {
        SplittableRandom rnd = new SplittableRandom(100 + seed);
        long queries = 0;
        long above = 0;
        for (int round = 0; round < 12; round++) {
            int n = 1 + rnd.nextInt(seed * 60);
            SpaceProblem p = random(rnd, n);
            int[] order = shuffled(rnd, n);
            OccupancyTree index = new OccupancyTree(p, order);
            int bytes = rnd.nextBoolean() ? 1 << 20 : 4000;
            for (int step = 0; step < 2 * n; step++) {
                int k = rnd.nextInt(n);
                long size = rnd.nextInt(6) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextBoolean() ? 64 : 2 * bytes);
                long align = 1L << rnd.nextInt(13);
                int m = index.gather(k);
                long want = HeuristicSolver.firstGap(index.starts(), index.ends(), m, size, align);
                long got = index.firstFit(k, size, align);
                if (got != want) {
                    assertThat(got).as("seed %d round %d query %d size %d align %d", seed, round, k, size, align)
                            .isEqualTo(want);
                }
                queries++;
                if (m > 0 && want > 0) {
                    above++;
                }
                long start = rnd.nextInt(bytes);
                index.add(rnd.nextInt(n), start, start + rnd.nextInt(1 + bytes / 8));
            }
        }
        // the comparison met gaps above recorded ranges, not only empty unions
        assertThat(above).isGreaterThan(queries / 4);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void gathersTheUnionOfTheRecordedItemsSharingAStep(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 12; round++) {
            int n = 1 + rnd.nextInt(seed * 60);
            SpaceProblem p = random(rnd, n);
            // the index names items by position in a shuffled order; the test keeps item numbers
            int[] order = shuffled(rnd, n);
            int[] position = new int[n];
            for (int k = 0; k < n; k++) {
                position[order[k]] = k;
            }
            OccupancyTree index = new OccupancyTree(p, order);
            long[] start = new long[n];
            long[] end = new long[n];
            boolean[] listed = new boolean[n];
            // a narrow byte range for some rounds, so that ranges overlap and touch often
            int bytes = rnd.nextBoolean() ? 1 << 20 : 4000;
            for (int i = 0; i < n; i++) {
                start[i] = rnd.nextInt(bytes);
                end[i] = start[i] + p.reserved(i);
            }
            int checked = 0;
            for (int step = 0; step < 2 * n; step++) {
                int q = rnd.nextInt(n);
                int k = index.gather(position[q]);
                long[] s = index.starts();
                long[] e = index.ends();
                for (int x = 1; x < k; x++) {
                    if (s[x] < s[x - 1]) {
                        throw new AssertionError("seed " + seed + " round " + round + ": not sorted by start at " + x);
                    }
                }
                long[] got = union(s, e, k);
                long[] ws = new long[n];
                long[] we = new long[n];
                int w = 0;
                for (int j = 0; j < n; j++) {
                    if (listed[j] && p.reserved(j) > 0 && p.overlapInTime(q, j)) {
                        ws[w] = start[j];
                        we[w++] = end[j];
                    }
                }
                Sorting.sortByKey(ws, we, w);
                long[] want = union(ws, we, w);
                if (!Arrays.equals(got, want)) {
                    // only now pay for AssertJ's description of the difference
                    assertThat(got).as("seed %d round %d query %d", seed, round, q).containsExactly(want);
                }
                checked++;
                int add = rnd.nextInt(n);
                if (!listed[add]) {
                    listed[add] = true;
                    index.add(position[add], start[add], end[add]);
                }
            }
            assertThat(checked).isEqualTo(2 * n);
        }
    }

    /** The union of the ranges {@code [s[q], e[q])} sorted by start, as start, end, start, end, ... (touching ranges merged). */
    private static long[] union(long[] s, long[] e, int k) {
        long[] out = new long[2 * k];
        int w = 0;
        for (int q = 0; q < k; q++) {
            if (w > 0 && s[q] <= out[w - 1]) {
                out[w - 1] = Math.max(out[w - 1], e[q]);
            } else {
                out[w++] = s[q];
                out[w++] = e[q];
            }
        }
        return Arrays.copyOf(out, w);
    }

    @ParameterizedTest
    @ValueSource(ints = {11, 12, 13})
    void heuristicPlacementsNeverOverlap(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 6; round++) {
            SpaceProblem p = random(rnd, 1 + rnd.nextInt(1000));
            for (Solver solver : List.of(HeuristicSolver.greedyBySize(), HeuristicSolver.bestFit())) {
                long[] off = ((Outcome.Solved) solver.solve(p, Budget.unlimited())).offsets();
                Integer[] byStart = new Integer[p.size()];
                Arrays.setAll(byStart, i -> i);
                Arrays.sort(byStart, (a, b) -> Long.compare(off[a], off[b]));
                for (int x = 0; x < byStart.length; x++) {
                    int i = byStart[x];
                    for (int y = x + 1; y < byStart.length && off[byStart[y]] < off[i] + p.reserved(i); y++) {
                        int j = byStart[y];
                        if (p.reserved(i) > 0 && p.reserved(j) > 0 && p.overlapInTime(i, j)) {
                            throw new AssertionError(solver.kind() + " overlaps items " + i + " and " + j);
                        }
                    }
                }
            }
        }
    }
}
