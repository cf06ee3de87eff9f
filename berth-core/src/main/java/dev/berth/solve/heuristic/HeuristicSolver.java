package dev.berth.solve.heuristic;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

import dev.berth.solve.SolverKind;
import dev.berth.solve.SpaceProblem;
import dev.berth.solve.Solver;
import dev.berth.solve.Outcome;
import dev.berth.solve.Budget;

import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.solve.thread.OwnThread;

/**
 * The two heuristic families of the field, sharing one loop: items in decreasing size
 * (longer lifetime, then input order, breaking ties), each placed among the already placed
 * items it shares a step with.
 * <ul>
 *   <li>{@link #greedyBySize()}: the lowest offset that fits (TFLM's greedy-by-size);</li>
 *   <li>{@link #bestFit()}: the smallest gap that fits, else on top (XLA's decreasing-size best fit).</li>
 * </ul>
 * Offsets are computed with saturating checked arithmetic; an item whose end would pass 2^63-1
 * (the bytes live together pass what the planner's integers hold) is {@code arithmetic-overflow}
 * naming it: the solver never returns a placement it could not represent.
 *
 * <p>The loop asks the budget every {@link #POLL} items whether to stop (the clock's safety
 * net, or a cancellation): once it says so, every item still to place goes on top of those
 * placed (a valid placement, reached in no time), and the budget records it when the clock was
 * the reason. It does not tell the budget's progress listener (not a search). Without that, the placement depends on nothing but the problem.
 */
public final class HeuristicSolver implements Solver {
    private final boolean bestFit;
    /** The loop asks the budget whether to stop once per this many items (a power of two). */
    static final int POLL = 1 << 10;
    /** Items per sweep of the placing schedule ({@link PlacingSchedule}); the placement does not depend on it. */
    private final int chunk;

    HeuristicSolver(boolean bestFit, int chunk) {
        this.bestFit = bestFit;
        this.chunk = chunk;
    }

    public static HeuristicSolver greedyBySize() {
        return new HeuristicSolver(false, PlacingSchedule.CHUNK);
    }

    public static HeuristicSolver bestFit() {
        return new HeuristicSolver(true, PlacingSchedule.CHUNK);
    }

    @Override
    public SolverKind kind() {
        return bestFit ? SolverKind.BEST_FIT : SolverKind.GREEDY;
    }

    @Override
    public Outcome solve(SpaceProblem p, Budget budget) {
        int n = p.size();
        int[] order = order(p);
        OccupancyTree index = new OccupancyTree(p, order);
        // what the loop needs of each item, by position: read in order, not scattered
        long[] size = new long[n];
        long[] align = new long[n];
        long[] fixedAt = new long[n];
        for (int k = 0; k < n; k++) {
            int i = order[k];
            size[k] = p.reserved(i);
            align[k] = p.alignment(i);
            fixedAt[k] = p.fixedOffset(i);
        }
        long[] placed = new long[n];
        long height = 0;
        int[] schedule = n > PlacingSchedule.SWEEP_FROM_CHUNKS * (long) chunk
                ? PlacingSchedule.of(index.steps(), chunk) : null;
        boolean stopped = false;
        for (int t = 0; t < n; t++) {
            int k = schedule == null ? t : schedule[t];
            if (!stopped && (t & (POLL - 1)) == POLL - 1 && budget.expired()) {
                stopped = true;
            }
            long at;
            if (fixedAt[k] >= 0) {
                at = fixedAt[k];
            } else if (stopped) {
                // the clock stopped the search: the rest on top, each above everything placed so far
                at = Checked.saturatingAlignUp(height, align[k]);
            } else {
                // every start is below the height so far
                if (bestFit) {
                    int m = index.gather(k);
                    at = bestGap(index.starts(), index.ends(), m, size[k], align[k]);
                } else {
                    at = index.firstFit(k, size[k], align[k]);
                    assert at == firstGapOfGathering(index, k, size[k], align[k]) : "firstFit and firstGap disagree";
                }
            }
            if (size[k] > Long.MAX_VALUE - at) {
                throw endOverflow(p, order[k], at, size[k]);
            }
            long end = at + size[k];
            placed[k] = at;
            height = Math.max(height, end);
            index.add(k, at, end);
        }
        long[] offset = new long[n];
        for (int k = 0; k < n; k++) {
            offset[order[k]] = placed[k];
        }
        return new Outcome.Solved(offset, height);
    }

    /** {@code arithmetic-overflow}: item {@code i} at {@code at} would end past 2^63-1. */
    private static BerthException endOverflow(SpaceProblem p, int i, long at, long size) {
        String where = p.space() == null ? "" : " in space " + p.space().name();
        Facts f = Facts.NONE.withBuffer(p.name(i)).withRequested(size);
        if (p.space() != null) {
            f = f.withSpace(p.space().name());
        }
        return new BerthException(new Failure.ArithmeticOverflow(p.name(i) + where + ": placed at " + at
                + " above the items it shares steps with, its " + size + " bytes would end past 2^63-1", "add", f));
    }

    /** From this many items on, {@link #bestFitAndGreedy} runs the two side by side when threads allow. */
    public static final int SIDE_BY_SIDE_FROM = 1 << 12;

    /**
     * Best fit's and greedy's placements of {@code p}, in that order. From {@link #SIDE_BY_SIDE_FROM}
     * items on, when more than one thread may be used ({@code threads} 2 or more, or 0 on a machine of
     * two or more processors), best fit runs on a second thread beside greedy: each has its own state
     * and is deterministic, so the placements are the same either way. A runtime exception of best
     * fit's thread, and running out of memory there, are the caller's, on the caller's thread.
     */
    public static List<Outcome.Solved> bestFitAndGreedy(SpaceProblem p, Budget budget, int threads) {
        boolean parallel = p.size() >= SIDE_BY_SIDE_FROM
                && (threads > 1 || (threads == 0 && Runtime.getRuntime().availableProcessors() > 1));
        if (!parallel) {
            return List.of((Outcome.Solved) bestFit().solve(p, budget), (Outcome.Solved) greedyBySize().solve(p, budget));
        }
        FutureTask<Outcome> bestFit = new FutureTask<>(() -> bestFit().solve(p, budget));
        Thread t = OwnThread.start("berth-best-fit", 0, bestFit);
        Outcome.Solved greedy;
        try {
            greedy = (Outcome.Solved) greedyBySize().solve(p, budget);
        } finally {
            OwnThread.join(t);
        }
        try {
            return List.of((Outcome.Solved) bestFit.get(), greedy);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof OutOfMemoryError oom) {
                throw oom;
            }
            throw new IllegalStateException("best fit failed", e.getCause());
        } catch (InterruptedException e) {
            throw new IllegalStateException("unreachable: the thread has ended", e);
        }
    }

    /**
     * Every item: the fixed ones first (in input order), then the free ones by decreasing size,
     * then longer lifetime, then input order.
     */
    public static int[] order(SpaceProblem p) {
        int n = p.size();
        int fixed = 0;
        for (int i = 0; i < n; i++) {
            if (p.isFixed(i)) {
                fixed++;
            }
        }
        int[] out = new int[n];
        int[] free = new int[n - fixed];
        long[] size = new long[n];
        long[] length = new long[n];
        for (int i = 0, f = 0, k = 0; i < n; i++) {
            size[i] = p.reserved(i);
            length[i] = (long) p.last(i) - p.first(i);
            if (p.isFixed(i)) {
                out[f++] = i;
            } else {
                free[k++] = i;
            }
        }
        Sorting.sortDescending(free, size, length);
        System.arraycopy(free, 0, out, fixed, free.length);
        return out;
    }

    /** {@link #firstGap} in what the index gathers for position {@code k}: what {@code firstFit} must find. */
    private static long firstGapOfGathering(OccupancyTree index, int k, long size, long align) {
        int m = index.gather(k);
        return firstGap(index.starts(), index.ends(), m, size, align);
    }

    /** The lowest aligned offset where {@code size} bytes fit between the sorted intervals. */
    public static long firstGap(long[] starts, long[] ends, int m, long size, long align) {
        if (size == 0) {
            return 0;
        }
        long cand = 0;
        for (int q = 0; q < m; q++) {
            if (ends[q] <= cand) {
                continue;
            }
            if (starts[q] >= Checked.saturatingAdd(cand, size)) {
                return cand;
            }
            cand = Checked.saturatingAlignUp(Math.max(cand, ends[q]), align);
        }
        return cand;
    }

    /** The aligned start of the smallest gap that holds {@code size} bytes; on top if none does. */
    public static long bestGap(long[] starts, long[] ends, int m, long size, long align) {
        long cursor = 0;
        long best = -1;
        long bestLen = Long.MAX_VALUE;
        for (int q = 0; q < m; q++) {
            if (starts[q] > cursor) {
                long cand = Checked.saturatingAlignUp(cursor, align);
                if (cand <= starts[q] && size <= starts[q] - cand) {
                    long len = starts[q] - cursor;
                    if (len < bestLen) {
                        bestLen = len;
                        best = cand;
                    }
                }
            }
            cursor = Math.max(cursor, ends[q]);
        }
        return best >= 0 ? best : Checked.saturatingAlignUp(cursor, align);
    }

}
