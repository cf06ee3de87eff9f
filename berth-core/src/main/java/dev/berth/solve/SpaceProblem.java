package dev.berth.solve;

import dev.berth.target.Space;

/**
 * The placement problem of one space, in the compact form solvers work on (MiniMalloc's
 * "problem"): item {@code i} needs {@code reserved[i]} bytes at a multiple of
 * {@code alignment[i]} during steps {@code first[i]..last[i]}; fixed items sit at
 * {@code fixedOffset[i]} (-1 for items the solver places). Sizes are already rounded and
 * checked by the planner; solvers only ever add offsets and sizes that stay below
 * {@link #limit()} or below 2^63-1, with checked arithmetic.
 */
public final class SpaceProblem {
    private final Space space;
    private final String[] names;
    private final long[] reserved;
    private final long[] alignment;
    private final int[] first;
    private final int[] last;
    private final long[] fixedOffset;
    private final long limit;

    public SpaceProblem(Space space, String[] names, long[] reserved, long[] alignment, int[] first, int[] last,
                        long[] fixedOffset, long limit) {
        int n = names.length;
        if (reserved.length != n || alignment.length != n || first.length != n || last.length != n
                || fixedOffset.length != n) {
            throw new IllegalArgumentException("arrays of different lengths");
        }
        for (int i = 0; i < n; i++) {
            if (reserved[i] < 0 || alignment[i] <= 0 || first[i] < 0 || last[i] < first[i] || fixedOffset[i] < -1) {
                throw new IllegalArgumentException("bad item " + i + " (" + names[i] + ")");
            }
        }
        this.space = space;
        this.names = names;
        this.reserved = reserved;
        this.alignment = alignment;
        this.first = first;
        this.last = last;
        this.fixedOffset = fixedOffset;
        this.limit = limit;
    }

    /** A problem with no fixed items, alignment 1, in no particular space: for solvers and benchmarks. */
    public static SpaceProblem of(long[] sizes, int[] first, int[] last, long limit) {
        int n = sizes.length;
        String[] names = new String[n];
        long[] align = new long[n];
        long[] fixed = new long[n];
        for (int i = 0; i < n; i++) {
            names[i] = Integer.toString(i);
            align[i] = 1;
            fixed[i] = -1;
        }
        return new SpaceProblem(null, names, sizes, align, first, last, fixed, limit);
    }

    public int size() {
        return names.length;
    }

    /** The space, or null for an abstract problem (benchmarks, tests). */
    public Space space() {
        return space;
    }

    public String name(int i) {
        return names[i];
    }

    public long reserved(int i) {
        return reserved[i];
    }

    public long alignment(int i) {
        return alignment[i];
    }

    public int first(int i) {
        return first[i];
    }

    public int last(int i) {
        return last[i];
    }

    public boolean isFixed(int i) {
        return fixedOffset[i] >= 0;
    }

    public long fixedOffset(int i) {
        return fixedOffset[i];
    }

    /** The largest exclusive end any reservation may reach in this space (format and capacity). */
    public long limit() {
        return limit;
    }

    /** A copy with another limit (minimisation, deletion filters). */
    public SpaceProblem withLimit(long newLimit) {
        return new SpaceProblem(space, names, reserved, alignment, first, last, fixedOffset, newLimit);
    }

    /** The sub-problem of the items {@code keep} (indices into this problem). */
    public SpaceProblem subset(int[] keep) {
        int n = keep.length;
        String[] nm = new String[n];
        long[] r = new long[n];
        long[] a = new long[n];
        int[] f = new int[n];
        int[] l = new int[n];
        long[] x = new long[n];
        for (int k = 0; k < n; k++) {
            int i = keep[k];
            nm[k] = names[i];
            r[k] = reserved[i];
            a[k] = alignment[i];
            f[k] = first[i];
            l[k] = last[i];
            x[k] = fixedOffset[i];
        }
        return new SpaceProblem(space, nm, r, a, f, l, x, limit);
    }

    /** True when items {@code i} and {@code j} are live at a common step. */
    public boolean overlapInTime(int i, int j) {
        return first[i] <= last[j] && first[j] <= last[i];
    }
}
