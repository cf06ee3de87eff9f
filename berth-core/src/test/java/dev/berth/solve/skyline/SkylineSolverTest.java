package dev.berth.solve.skyline;

import dev.berth.solve.SpaceProblem;
import dev.berth.solve.Outcome;
import dev.berth.solve.Budget;
import dev.berth.solve.heuristic.HeuristicSolver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The skyline heuristic on seeded random problems with fixed items, alignments and zero
 * sizes: every placement is checked pair by pair (no two items live at a common step share
 * a byte, offsets are multiples of their alignment, fixed items stay put, the reported height
 * is the highest end); it is never higher than greedy-by-size; the same input gives the same
 * offsets; the three ways of keeping the dive's candidates give the same dives; a dive that
 * re-places some items around kept ones equals a dive with the kept ones fixed.
 */
class SkylineSolverTest {

    static IntStream seeds() {
        return IntStream.rangeClosed(1, 60);
    }

    /** A random problem; fixed items (alignment 1) at offsets that never overlap each other. */
    static SpaceProblem random(SplittableRandom rnd, int n) {
        int span = 1 + rnd.nextInt(2 * n + 1);
        String[] names = new String[n];
        long[] size = new long[n];
        long[] align = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        long[] fixed = new long[n];
        for (int i = 0; i < n; i++) {
            names[i] = "b" + i;
            first[i] = rnd.nextInt(span);
            last[i] = first[i] + (rnd.nextInt(4) == 0 ? rnd.nextInt(span) : rnd.nextInt(3));
            size[i] = rnd.nextInt(8) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextBoolean() ? 16 : 300);
            align[i] = 1L << rnd.nextInt(5);
            fixed[i] = -1;
            if (rnd.nextInt(6) == 0) {
                long at = rnd.nextInt(600);
                boolean clash = false;
                for (int j = 0; j < i; j++) {
                    if (fixed[j] >= 0 && first[i] <= last[j] && first[j] <= last[i]
                            && fixed[j] < at + size[i] && at < fixed[j] + size[j]) {
                        clash = true;
                    }
                }
                if (!clash) {
                    fixed[i] = at;
                    align[i] = 1;
                }
            }
        }
        return new SpaceProblem(null, names, size, align, first, last, fixed, Long.MAX_VALUE);
    }

    /** Checks the placement pair by pair and returns its height. */
    static long check(SpaceProblem p, Outcome.Solved o) {
        long[] at = o.offsets();
        assertThat(at).hasSize(p.size());
        long height = 0;
        for (int i = 0; i < p.size(); i++) {
            if (p.isFixed(i)) {
                assertThat(at[i]).as("fixed item %d", i).isEqualTo(p.fixedOffset(i));
            } else {
                assertThat(at[i]).as("offset of %d", i).isNotNegative();
                assertThat(at[i] % p.alignment(i)).as("alignment of %d", i).isZero();
            }
            height = Math.max(height, at[i] + p.reserved(i));
            for (int j = 0; j < i; j++) {
                if (p.reserved(i) > 0 && p.reserved(j) > 0 && p.overlapInTime(i, j)) {
                    boolean apart = at[i] + p.reserved(i) <= at[j] || at[j] + p.reserved(j) <= at[i];
                    assertThat(apart).as("items %d [%d,+%d) and %d [%d,+%d) overlap", i, at[i], p.reserved(i), j,
                            at[j], p.reserved(j)).isTrue();
                }
            }
        }
        assertThat(o.height()).isEqualTo(height);
        return height;
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void placesValidlyNeverAboveGreedyAndDeterministically(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        SpaceProblem p = random(rnd, 1 + rnd.nextInt(40));
        SkylineSolver solver = new SkylineSolver(new SkylineSolver.Settings(200, 40, seed));
        Outcome.Solved o = (Outcome.Solved) solver.solve(p, Budget.unlimited());
        long height = check(p, o);
        Outcome.Solved greedy = (Outcome.Solved) HeuristicSolver.greedyBySize().solve(p, Budget.unlimited());
        assertThat(height).isLessThanOrEqualTo(greedy.height());
        assertThat(height).isGreaterThanOrEqualTo(p.lowerBound());
        Outcome.Solved again = (Outcome.Solved) solver.solve(p, Budget.unlimited());
        assertThat(again.offsets()).containsExactly(o.offsets());
    }

    /**
     * A lazy dive looks at the clock as it goes: past the deadline it stops, saying so; the
     * solver then returns the placement it started from, and the budget says the clock stopped it.
     */
    @Test
    void aLazyDiveStopsAtTheDeadline() {
        SplittableRandom rnd = new SplittableRandom(77);
        SpaceProblem p = random(rnd, 3 * LazyDive.POLL);
        int[] items = IntStream.range(0, p.size()).filter(i -> !p.isFixed(i) && p.reserved(i) > 0).toArray();
        assertThat(items.length).isGreaterThan(LazyDive.POLL);
        double[] prio = new double[items.length];
        SkylineDive lazy = new SkylineDive(p, items, SkylineDive.Mode.LAZY);
        assertThat(lazy.run(prio, new long[items.length], Budget.unlimited())).isLessThan(Dive.STOPPED);
        // its work counts every item placed, and every refresh of a candidate besides
        assertThat(lazy.work()).isGreaterThanOrEqualTo(items.length);
        SkylineDive exact = new SkylineDive(p, items, SkylineDive.Mode.HEAP);
        exact.run(prio, new long[items.length], Budget.unlimited());
        assertThat(exact.work()).isEqualTo(items.length);
        Budget late = Budget.seconds(1e-9);
        assertThat(lazy.run(prio, new long[items.length], late)).isEqualTo(Dive.STOPPED);
        assertThat(late.stoppedByClock()).isTrue();
        Outcome.Solved greedy = (Outcome.Solved) HeuristicSolver.greedyBySize().solve(p, Budget.unlimited());
        Budget again = Budget.seconds(1e-9);
        Outcome.Solved o = new SkylineSolver().improve(p, greedy, again);
        assertThat(o.offsets()).containsExactly(greedy.offsets());
        assertThat(again.stoppedByClock()).isTrue();
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void exactAndLazyCandidatesGiveTheSameDive(int seed) {
        SplittableRandom rnd = new SplittableRandom(1000 + seed);
        SpaceProblem p = random(rnd, 1 + rnd.nextInt(60));
        int[] items = IntStream.range(0, p.size()).filter(i -> !p.isFixed(i) && p.reserved(i) > 0).toArray();
        if (items.length == 0) {
            return;
        }
        double[] prio = new double[items.length];
        for (int k = 0; k < prio.length; k++) {
            prio[k] = rnd.nextInt(5);
        }
        long[] a = new long[items.length];
        long ha = new SkylineDive(p, items, SkylineDive.Mode.SCAN).run(prio, a, Budget.unlimited());
        for (SkylineDive.Mode mode : new SkylineDive.Mode[]{SkylineDive.Mode.HEAP, SkylineDive.Mode.LAZY}) {
            long[] b = new long[items.length];
            long hb = new SkylineDive(p, items, mode).run(prio, b, Budget.unlimited());
            assertThat(b).as(mode.name()).containsExactly(a);
            assertThat(hb).as(mode.name()).isEqualTo(ha);
        }
        long[] offsets = new long[p.size()];
        long height = 0;
        for (int i = 0; i < p.size(); i++) {
            offsets[i] = p.isFixed(i) ? p.fixedOffset(i) : 0;
            height = Math.max(height, offsets[i] + p.reserved(i));
        }
        for (int k = 0; k < items.length; k++) {
            offsets[items[k]] = a[k];
            height = Math.max(height, a[k] + p.reserved(items[k]));
        }
        check(p, new Outcome.Solved(offsets, height));
    }

    /**
     * A kept run (some items re-placed, the others kept where they are) gives the same offsets
     * as a dive over the sub-problem in which the kept items are fixed, in both exact modes.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void aKeptRunIsADiveWithTheKeptItemsFixed(int seed) {
        SplittableRandom rnd = new SplittableRandom(5000 + seed);
        SpaceProblem p = random(rnd, 2 + rnd.nextInt(60));
        int[] items = IntStream.range(0, p.size()).filter(i -> !p.isFixed(i) && p.reserved(i) > 0).toArray();
        int m = items.length;
        if (m == 0) {
            return;
        }
        double[] prio = new double[m];
        for (int k = 0; k < m; k++) {
            prio[k] = rnd.nextInt(5);
        }
        long[] cur = new long[m];
        new SkylineDive(p, items).run(prio, cur, Budget.unlimited());
        int[] active = IntStream.range(0, m).filter(k -> rnd.nextInt(3) == 0).toArray();
        for (int k = 0; k < m; k++) {
            prio[k] = rnd.nextInt(5);
        }
        // the reference: kept items fixed at their offsets, the freed ones free (same relative order)
        boolean[] freed = new boolean[m];
        for (int k : active) {
            freed[k] = true;
        }
        int n = p.size();
        String[] names = new String[n];
        long[] size = new long[n];
        long[] align = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        long[] fixed = new long[n];
        for (int i = 0; i < n; i++) {
            names[i] = p.name(i);
            size[i] = p.reserved(i);
            align[i] = p.alignment(i);
            first[i] = p.first(i);
            last[i] = p.last(i);
            fixed[i] = p.isFixed(i) ? p.fixedOffset(i) : -1;
        }
        for (int k = 0; k < m; k++) {
            if (!freed[k]) {
                fixed[items[k]] = cur[k];
                align[items[k]] = 1;
            }
        }
        SpaceProblem sub = new SpaceProblem(null, names, size, align, first, last, fixed, Long.MAX_VALUE);
        int[] subItems = IntStream.of(active).map(k -> items[k]).toArray();
        double[] subPrio = IntStream.of(active).mapToDouble(k -> prio[k]).toArray();
        long[] expected = new long[active.length];
        long expectedHeight = new SkylineDive(sub, subItems).run(subPrio, expected, Budget.unlimited());
        for (SkylineDive.Mode mode : new SkylineDive.Mode[]{SkylineDive.Mode.SCAN, SkylineDive.Mode.HEAP}) {
            SkylineDive dive = new SkylineDive(p, items, mode);
            dive.keep(active, active.length, cur);
            long[] got = cur.clone();
            long height = dive.runKept(active, active.length, prio, got);
            long[] gotActive = IntStream.of(active).mapToLong(k -> got[k]).toArray();
            assertThat(gotActive).as(mode.name()).containsExactly(expected);
            assertThat(height).as(mode.name()).isEqualTo(expectedHeight);
            long[] offsets = new long[n];
            long top = 0;
            for (int i = 0; i < n; i++) {
                offsets[i] = p.isFixed(i) ? p.fixedOffset(i) : 0;
                top = Math.max(top, offsets[i] + p.reserved(i));
            }
            for (int k = 0; k < m; k++) {
                offsets[items[k]] = got[k];
                top = Math.max(top, got[k] + p.reserved(items[k]));
            }
            check(p, new Outcome.Solved(offsets, top));
        }
    }

    @Test
    void aLargeProblemTakesTheHeapPathAndStaysValid() {
        SplittableRandom rnd = new SplittableRandom(7);
        int n = SkylineDive.SCAN_LIMIT + 200;
        long[] size = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        for (int i = 0; i < n; i++) {
            first[i] = rnd.nextInt(2000);
            last[i] = first[i] + rnd.nextInt(rnd.nextInt(10) == 0 ? 200 : 4);
            size[i] = 1 + rnd.nextInt(4096);
        }
        SpaceProblem p = SpaceProblem.of(size, first, last, Long.MAX_VALUE);
        Outcome.Solved o = (Outcome.Solved) new SkylineSolver(new SkylineSolver.Settings(3, 2, 1))
                .solve(p, Budget.unlimited());
        long height = check(p, o);
        Outcome.Solved greedy = (Outcome.Solved) HeuristicSolver.greedyBySize().solve(p, Budget.unlimited());
        assertThat(height).isLessThanOrEqualTo(greedy.height());
    }

    @Test
    void anExhaustedBudgetStillGivesAValidPlacement() {
        SpaceProblem p = random(new SplittableRandom(3), 30);
        Budget spent = Budget.unlimited();
        spent.cancel();
        check(p, (Outcome.Solved) new SkylineSolver().solve(p, spent));
    }
}
