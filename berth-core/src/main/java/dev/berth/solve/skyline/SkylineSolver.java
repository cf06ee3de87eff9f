package dev.berth.solve.skyline;

import dev.berth.solve.SpaceProblem;
import dev.berth.solve.Solver;
import dev.berth.solve.SolverKind;
import dev.berth.solve.Outcome;
import dev.berth.solve.Budget;
import dev.berth.solve.heuristic.HeuristicSolver;

import dev.berth.arith.Checked;

import java.util.SplittableRandom;

/**
 * A heuristic that improves on greedy-by-size in two phases, with no complete search.
 * <ol>
 *   <li>Repeated {@link SkylineDive skyline dives} steered by a "squeaky wheel": after each
 *   dive, the items that end above the lower bound (the most bytes live at one step) get a
 *   higher priority, in proportion to how far above they end, times a seeded random factor
 *   in [0.5, 1.5); the next dive places them earlier among the items that could go at the
 *   same height. Half the dives start from "longer lifetime first", half from "larger area
 *   (bytes times steps) first" (the later phase gets the odd dive: one dive is larger area first).</li>
 *   <li>{@link PeakRepair Peak repair} (a large-neighbourhood search): free every item live
 *   in a random time window around an item that ends at the top, keep the others in place,
 *   re-place the freed ones with a short squeaky-wheel search, keep the change if the height
 *   does not grow and the bytes above the lower bound do not grow.</li>
 * </ol>
 * The best placement is returned, never worse than greedy-by-size, which is computed first.
 *
 * <p>Deterministic: the numbers of dives and repairs are fixed by the settings and the
 * problem size (a lazy dive, whose candidates refresh, counts each refresh as a placement of
 * the dives' work, so its phase runs fewer dives), the random factors come from a fixed seed; the {@link Budget} only cuts the
 * search short. Always returns {@link Outcome.Solved}, possibly above the limit.
 */
public final class SkylineSolver implements Solver {
    /** How many dives and repairs, at most; and the seed of the random factors. */
    public record Settings(int dives, int repairs, long seed) {
        public Settings {
            if (dives < 1 || repairs < 0) {
                throw new IllegalArgumentException("dives < 1 or repairs < 0");
            }
        }

        public static Settings defaults() {
            return new Settings(1000, 1000, 1);
        }
    }

    /** Dives stop early beyond this many item placements in total (bounds the work on large problems). */
    private static final long PLACEMENTS = 20_000_000L;

    private final Settings settings;
    /** Dives of the squeaky-wheel search on each repair's sub-problem. */
    private static final int SUBDIVES = 20;
    /** A repair window reaches at most horizon / REACH steps beyond each end of the top item. */
    private static final int REACH = 8;
    /** The repairs stop when their dives have cost this many times the main dives (estimated). */
    private static final double REPAIR_WORK = 0.5;

    public SkylineSolver() {
        this(Settings.defaults());
    }

    public SkylineSolver(Settings settings) {
        this.settings = settings;
    }

    @Override
    public SolverKind kind() {
        return SolverKind.SKYLINE;
    }

    @Override
    public Outcome solve(SpaceProblem p, Budget budget) {
        return improve(p, (Outcome.Solved) HeuristicSolver.greedyBySize().solve(p, budget), budget);
    }

    /**
     * The search of {@link #solve} starting from {@code start}, a placement already known (the
     * planner passes the better of its heuristics, so greedy does not run again): returns a
     * lower placement, or {@code start} itself.
     */
    public Outcome.Solved improve(SpaceProblem p, Outcome.Solved start, Budget budget) {
        Outcome.Solved greedy = start;
        int n = p.size();
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (!p.isFixed(i) && p.reserved(i) > 0) {
                m++;
            }
        }
        if (m == 0) {
            return greedy;
        }
        int[] items = new int[m];
        for (int i = 0, k = 0; i < n; i++) {
            if (!p.isFixed(i) && p.reserved(i) > 0) {
                items[k++] = i;
            }
        }
        SkylineDive dive = new SkylineDive(p, items);
        long target = target(p, dive);
        if (greedy.height() <= target) {
            return greedy;
        }
        long fixedTop = p.fixedTop();
        int dives = (int) Math.max(1, Math.min(settings.dives(), PLACEMENTS / m)); // at most settings.dives()
        SplittableRandom random = new SplittableRandom(settings.seed());
        Search search = new Search(dive, target, random);
        int[] all = new int[m];
        for (int k = 0; k < m; k++) {
            all[k] = k;
        }
        search.run(all, m, false, dives, budget);
        int repairs = (int) Math.min(settings.repairs(), PLACEMENTS / ((long) m * SUBDIVES)); // at most settings.repairs()
        if (search.bestHeight > target && repairs > 0 && dive.canKeep()) {
            new PeakRepair(dive, target, random).run(search, repairs, dives, budget);
        }
        long height = Math.max(search.bestHeight, fixedTop);
        if (height >= greedy.height()) {
            return greedy;
        }
        long[] offsets = new long[n];
        for (int i = 0; i < n; i++) {
            offsets[i] = p.isFixed(i) ? p.fixedOffset(i) : 0;
        }
        for (int k = 0; k < m; k++) {
            offsets[items[k]] = search.bestOffsets[k];
        }
        return new Outcome.Solved(offsets, height);
    }

    /**
     * The height the dives steer by: the most bytes live at one step ({@link SpaceProblem#peakLive})
     * or the highest end of the dives' obstacles, whichever is higher. This is the space's
     * {@link SpaceProblem#lowerBound} without the ends of zero-byte fixed items, which the dives
     * never meet (the height counts them afterwards, {@link SpaceProblem#fixedTop}). It is kept so,
     * not replaced by the bound, because it does more than stop the search: each dive's priorities
     * and each repair's excess measure how far above it an item ends, so where a zero-byte fixed
     * item ends above everything else, the bound would steer the dives elsewhere and change plans.
     */
    static long target(SpaceProblem p, SkylineDive dive) {
        return Math.max(p.peakLive(), dive.obstacleTop());
    }

    /**
     * Large-neighbourhood repair of the best placement: frees every item live in a time window
     * around an item that ends at the top, keeps the others where they are (obstacles of the
     * freed ones), re-places the freed ones with a few squeaky-wheel skyline dives, and
     * keeps the change when the height does not grow and the bytes above the lower bound do
     * not grow either.
     */
    private static final class PeakRepair {
        private final SkylineDive dive;
        private final long target;
        private final SplittableRandom random;

        PeakRepair(SkylineDive dive, long target, SplittableRandom random) {
            this.dive = dive;
            this.target = target;
            this.random = random;
        }

        void run(Search search, int moves, int mainDives, Budget budget) {
            int m = dive.count();
            long[] cur = search.bestOffsets.clone();
            long curH = search.bestHeight;
            long curEx = 0;
            for (int k = 0; k < m; k++) {
                curEx = Checked.saturatingAdd(curEx, excess(k, cur[k]));
            }
            int minStep = Integer.MAX_VALUE;
            int maxStep = 0;
            for (int k = 0; k < m; k++) {
                minStep = Math.min(minStep, dive.stepFirst(k));
                maxStep = Math.max(maxStep, dive.stepLast(k));
            }
            long horizon = (long) maxStep - minStep + 1;
            int[] tops = new int[m];
            int[] freed = new int[m];
            Search inner = new Search(dive, target, random);
            // a kept run scans its freed items at each step: about (freed items)^2 per dive; the
            // repairs stop when they have cost REPAIR_WORK times the main dives
            double work = 0;
            double allowed = REPAIR_WORK * mainDives * (double) m * m;
            for (int mv = 0; mv < moves && curH > target && work <= allowed; mv++) {
                if (budget.exhausted()) {
                    break;
                }
                int t = 0;
                for (int k = 0; k < m; k++) {
                    if (Checked.saturatingAdd(cur[k], dive.size(k)) == curH) {
                        tops[t++] = k;
                    }
                }
                int top = tops[random.nextInt(t)];
                long reach = (long) (random.nextDouble() * horizon / REACH);
                long lo = dive.stepFirst(top) - (long) (random.nextDouble() * reach);
                long hi = dive.stepLast(top) + (long) (random.nextDouble() * reach);
                int free = 0;
                long maxKept = 0;
                for (int k = 0; k < m; k++) {
                    if (dive.stepFirst(k) <= hi && lo <= dive.stepLast(k)) {
                        freed[free++] = k;
                    } else {
                        maxKept = Math.max(maxKept, Checked.saturatingAdd(cur[k], dive.size(k)));
                    }
                }
                work += (double) SUBDIVES * free * free;
                dive.keep(freed, free, cur);
                inner.run(freed, free, true, SUBDIVES, budget);
                long newH = Math.max(maxKept, inner.bestHeight);
                if (newH > curH) {
                    continue;
                }
                long ex = curEx;
                for (int q = 0; q < free; q++) {
                    int k = freed[q];
                    ex = Checked.saturatingAdd(ex - excess(k, cur[k]), excess(k, inner.bestOffsets[k]));
                }
                if (newH < curH || ex <= curEx) {
                    for (int q = 0; q < free; q++) {
                        cur[freed[q]] = inner.bestOffsets[freed[q]];
                    }
                    curH = newH;
                    curEx = ex;
                    if (curH < search.bestHeight) {
                        search.bestHeight = curH;
                        System.arraycopy(cur, 0, search.bestOffsets, 0, m);
                    }
                }
            }
        }

        /** The bytes of dive item {@code k} at {@code at} above the lower bound. */
        private long excess(int k, long at) {
            long end = Checked.saturatingAdd(at, dive.size(k));
            return end > target ? end - target : 0;
        }
    }

    /** The squeaky-wheel loop over dives of some of the items, keeping the best. */
    private static final class Search {
        private final SkylineDive dive;
        private final long target;
        private final SplittableRandom random;
        private final long[] offsets;
        private final double[] prio;
        /** Indexed by dive item; only the entries of the items of the last run are meaningful. */
        final long[] bestOffsets;
        long bestHeight = Long.MAX_VALUE;

        Search(SkylineDive dive, long target, SplittableRandom random) {
            this.dive = dive;
            this.target = target;
            this.random = random;
            this.offsets = new long[dive.count()];
            this.bestOffsets = new long[dive.count()];
            this.prio = new double[dive.count()];
        }

        /** The initial priorities of the phases: longer lifetime first, then larger area (bytes times steps) first. */
        private static final String MODES = "WA";

        /**
         * Dives over the items {@code active[0..count)} (in increasing order): all of them with
         * {@link SkylineDive#run}, or, when {@code kept}, with {@link SkylineDive#runKept} around
         * the kept ones of the last {@link SkylineDive#keep}.
         */
        void run(int[] active, int count, boolean kept, int dives, Budget budget) {
            bestHeight = Long.MAX_VALUE;
            int phases = MODES.length();
            for (int ph = 0; ph < phases; ph++) {
                char mode = MODES.charAt(ph);
                initial(active, count, mode);
                // at most dives
                int from = (int) ((long) dives * ph / phases);
                int to = (int) ((long) dives * (ph + 1) / phases);
                // the phase's work, in placements: its dives of every item; a lazy dive counts its
                // candidates' refreshes too, so that the phase ends by work, not by the clock
                long allowed = (long) (to - from) * count;
                long spent = 0;
                for (int d = from; d < to && spent < allowed; d++) {
                    // a dive costs at least its items: one look at the clock per dive is cheap
                    if (budget.exhausted()) {
                        return;
                    }
                    long h = kept ? dive.runKept(active, count, prio, offsets) : dive.run(prio, offsets, budget);
                    if (h == Dive.STOPPED) {
                        return;
                    }
                    spent = Checked.saturatingAdd(spent, kept ? count : dive.work());
                    if (h < bestHeight) {
                        bestHeight = h;
                        for (int q = 0; q < count; q++) {
                            bestOffsets[active[q]] = offsets[active[q]];
                        }
                        if (h <= target) {
                            return;
                        }
                    }
                    squeak(active, count, h);
                }
            }
        }

        private void initial(int[] active, int count, char mode) {
            for (int q = 0; q < count; q++) {
                int k = active[q];
                long width = (long) dive.stepLast(k) - dive.stepFirst(k) + 1;
                prio[k] = mode == 'W' ? (double) width * 1e7 + dive.size(k)
                        : mode == 'A' ? (double) width * dive.size(k)
                        : (double) dive.size(k) * 1e7 + width;
            }
        }

        private void squeak(int[] active, int count, long h) {
            double max = 0;
            for (int q = 0; q < count; q++) {
                max = Math.max(max, prio[active[q]]);
            }
            double span = h - target;
            for (int q = 0; q < count; q++) {
                int k = active[q];
                long end = Checked.saturatingAdd(offsets[k], dive.size(k));
                if (end > target) {
                    prio[k] += 0.1 * max * ((end - target) / span) * (0.5 + random.nextDouble());
                }
            }
        }
    }
}
