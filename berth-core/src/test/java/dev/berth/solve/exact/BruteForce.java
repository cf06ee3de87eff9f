package dev.berth.solve.exact;

import dev.berth.solve.SpaceProblem;

/**
 * Tries every aligned offset of every free item, in index order, against the items already
 * given an offset: the reference verdict for small problems. Shares nothing with the solver.
 */
public final class BruteForce {
    private BruteForce() {
    }

    /** The smallest limit at which every item fits, or -1 when none up to the problem's limit does. */
    public static long optimum(SpaceProblem p) {
        for (long limit = 0; limit <= p.limit(); limit++) {
            if (feasible(p.withLimit(limit))) {
                return limit;
            }
        }
        return -1;
    }

    public static boolean feasible(SpaceProblem p) {
        int n = p.size();
        long[] off = new long[n];
        boolean[] set = new boolean[n];
        for (int i = 0; i < n; i++) {
            if (p.isFixed(i)) {
                if (p.fixedOffset(i) + p.reserved(i) > p.limit()) {
                    return false;
                }
                for (int j = 0; j < n; j++) {
                    if (set[j] && clash(p, i, p.fixedOffset(i), j, off[j])) {
                        return false;
                    }
                }
                off[i] = p.fixedOffset(i);
                set[i] = true;
            }
        }
        return place(p, 0, off, set);
    }

    private static boolean place(SpaceProblem p, int i, long[] off, boolean[] set) {
        if (i == p.size()) {
            return true;
        }
        if (set[i]) {
            return place(p, i + 1, off, set);
        }
        for (long o = 0; o + p.reserved(i) <= p.limit(); o += p.alignment(i)) {
            boolean ok = true;
            for (int j = 0; j < p.size() && ok; j++) {
                ok = !set[j] || !clash(p, i, o, j, off[j]);
            }
            if (ok) {
                off[i] = o;
                set[i] = true;
                if (place(p, i + 1, off, set)) {
                    return true;
                }
                set[i] = false;
            }
        }
        return false;
    }

    private static boolean clash(SpaceProblem p, int i, long oi, int j, long oj) {
        boolean time = p.first(i) <= p.last(j) && p.first(j) <= p.last(i);
        boolean bytes = p.reserved(i) > 0 && p.reserved(j) > 0 && oi < oj + p.reserved(j) && oj < oi + p.reserved(i);
        return time && bytes;
    }
}
