package dev.berth.solve;

import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.failure.Require;
import dev.berth.sweep.LiveBytes;
import dev.berth.target.Space;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;

/**
 * The placement problem of one space, in the compact form solvers work on (MiniMalloc's
 * "problem"): item {@code i} needs {@code reserved[i]} bytes at a multiple of
 * {@code alignment[i]} during steps {@code first[i]..last[i]}; fixed items sit at
 * {@code fixedOffset[i]} (-1 for items the solver places). Sizes are already rounded and
 * checked by the planner; solvers only ever add offsets and sizes that stay below
 * {@link #limit()} or below 2^63-1, with checked arithmetic.
 *
 * <p>The constructor and {@link #of} check every entry and copy the arrays: a null array or
 * name is a NullPointerException naming it ({@code names[2]}); arrays of different lengths, a
 * negative or empty entry, a reversed lifetime, a non-positive alignment, a fixed offset below
 * -1 or ending past 2^63-1, two items of one name, and a negative limit are
 * {@code invalid-input} naming the array and index ({@code last[3]}) and the item. A reserved
 * size need not be a multiple of its alignment: the planner rounds its sizes up, but the solvers
 * place any size (their tests pose unrounded ones). {@link #withLimit} and {@link #subset} check
 * their own arguments the same way. The accessors taking an item index throw
 * {@link IndexOutOfBoundsException} for an index outside {@code 0..size()-1}.
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

    /**
     * A problem of the items {@code names[i]}, checked and copied (see the class comment);
     * {@code space} is null for an abstract problem (benchmarks, tests).
     */
    public SpaceProblem(Space space, String[] names, long[] reserved, long[] alignment, int[] first, int[] last,
                        long[] fixedOffset, long limit) {
        // the copies are checked and kept: the caller's arrays may change afterwards
        this(space, Objects.requireNonNull(names, "names").clone(), Objects.requireNonNull(reserved, "reserved").clone(),
                Objects.requireNonNull(alignment, "alignment").clone(), Objects.requireNonNull(first, "first").clone(),
                Objects.requireNonNull(last, "last").clone(), Objects.requireNonNull(fixedOffset, "fixedOffset").clone(),
                limit, true);
        checkEntries();
    }

    /** The checks of the public constructor, on the copies it holds (see the class comment). */
    private void checkEntries() {
        int n = names.length;
        sameLength("reserved", reserved.length, n);
        sameLength("alignment", alignment.length, n);
        sameLength("first", first.length, n);
        sameLength("last", last.length, n);
        sameLength("fixedOffset", fixedOffset.length, n);
        requireLimit(limit);
        for (int i = 0; i < n; i++) {
            String name = names[i];
            if (name == null) {
                throw new NullPointerException("names[" + i + "]");
            }
            if (name.isEmpty()) {
                throw Require.invalid("names[" + i + "]", name, "an item's name must not be empty");
            }
            if (reserved[i] < 0) {
                throw bad("reserved", i, name, Long.toString(reserved[i]), "must be a whole number of bytes in "
                        + "0..2^63-1, got " + reserved[i]);
            }
            if (alignment[i] <= 0) {
                throw bad("alignment", i, name, Long.toString(alignment[i]), "must be a positive whole number "
                        + "of bytes, got " + alignment[i]);
            }
            if (first[i] < 0) {
                throw bad("first", i, name, Integer.toString(first[i]), "a step is 0..2^31-1, got " + first[i]);
            }
            if (last[i] < first[i]) {
                throw bad("last", i, name, Integer.toString(last[i]), last[i] + " is before the first step " + first[i]
                        + "; an item is live over first..last");
            }
            if (fixedOffset[i] < -1) {
                throw bad("fixedOffset", i, name, Long.toString(fixedOffset[i]), "an offset 0..2^63-1, or -1 "
                        + "for an item the solver places, got " + fixedOffset[i]);
            }
            if (fixedOffset[i] > Long.MAX_VALUE - reserved[i]) {
                throw bad("fixedOffset", i, name, Long.toString(fixedOffset[i]), "the " + reserved[i] + " bytes at "
                        + fixedOffset[i] + " end past 2^63-1");
            }
        }
        requireDistinct(names);
    }

    /**
     * Refuses two items of one name, naming the later one. Sorts (hash, index) pairs in one long
     * array and compares names only where hashes meet: 8 bytes per item, where a hash map held
     * about 60 (10^6 items: 60 MB more at the peak of a plan).
     */
    private static void requireDistinct(String[] names) {
        int n = names.length;
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = ((long) names[i].hashCode() << 32) | i;
        }
        Arrays.sort(keys);
        int laterOfFirstPair = -1;
        int earlier = -1;
        for (int a = 0; a < n; ) {
            int b = a + 1;
            while (b < n && (keys[b] >>> 32) == (keys[a] >>> 32)) {
                b++;
            }
            if (b - a > 1) {
                // one hash: sorted by name, then index, equal names are neighbours and each run's first
                // two are its earliest item and the next one; the smallest such later index wins
                Integer[] group = new Integer[b - a];
                for (int x = a; x < b; x++) {
                    group[x - a] = (int) keys[x];
                }
                Arrays.sort(group, Comparator.<Integer, String>comparing(i -> names[i])
                        .thenComparing(Comparator.naturalOrder()));
                for (int x = 1; x < group.length; x++) {
                    int i = group[x - 1];
                    int j = group[x];
                    boolean runStart = x == 1 || !names[group[x - 2]].equals(names[i]);
                    if (runStart && names[i].equals(names[j]) && (laterOfFirstPair < 0 || j < laterOfFirstPair)) {
                        laterOfFirstPair = j;
                        earlier = i;
                    }
                }
            }
            a = b;
        }
        if (laterOfFirstPair >= 0) {
            String name = names[laterOfFirstPair];
            throw Require.invalid("names[" + laterOfFirstPair + "]", name, "'"
                    + name + "' is also the name of item " + earlier + "; item names are unique");
        }
    }

    /**
     * A problem of arrays it owns, assigned as they are: for the public constructor (which checks
     * them next), {@link #withLimit} and {@link #subset} (whose arrays are checked already).
     */
    private SpaceProblem(Space space, String[] names, long[] reserved, long[] alignment, int[] first, int[] last,
                         long[] fixedOffset, long limit, boolean trusted) {
        this.space = space;
        this.names = names;
        this.reserved = reserved;
        this.alignment = alignment;
        this.first = first;
        this.last = last;
        this.fixedOffset = fixedOffset;
        this.limit = limit;
    }

    /**
     * A problem with no fixed items, alignment 1, in no particular space, items named by their
     * index: for solvers and benchmarks. Checked as the constructor checks.
     */
    public static SpaceProblem of(long[] sizes, int[] first, int[] last, long limit) {
        int n = Objects.requireNonNull(sizes, "sizes").length;
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(last, "last");
        sameLength("first", first.length, n, "sizes");
        sameLength("last", last.length, n, "sizes");
        String[] names = new String[n];
        long[] align = new long[n];
        long[] fixed = new long[n];
        for (int i = 0; i < n; i++) {
            names[i] = Integer.toString(i);
            align[i] = 1;
            fixed[i] = -1;
            if (sizes[i] < 0) {
                throw bad("sizes", i, names[i], Long.toString(sizes[i]), "must be a whole number of bytes in "
                        + "0..2^63-1, got " + sizes[i]);
            }
        }
        return new SpaceProblem(null, names, sizes, align, first, last, fixed, limit);
    }

    private static void sameLength(String array, int length, int n) {
        sameLength(array, length, n, "names");
    }

    private static void sameLength(String array, int length, int n, String reference) {
        if (length != n) {
            throw Require.invalid(array, Integer.toString(length), length
                    + " entries, but " + reference + " has " + n + "; every array has one entry per item");
        }
    }

    private static void requireLimit(long limit) {
        if (limit < 0) {
            throw Require.invalid("limit", Long.toString(limit), "the largest end must be a whole number "
                    + "of bytes in 0..2^63-1, got " + limit);
        }
    }

    /** {@code invalid-input} at {@code array[i]}, naming item {@code name}. */
    private static BerthException bad(String array, int i, String name, String text, String why) {
        String path = array + "[" + i + "]";
        return BerthException.invalid(path, text, path + " (item '" + name + "'): " + why);
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

    /**
     * A copy with another limit (minimisation, deletion filters); a negative one is
     * {@code invalid-input} at {@code limit}.
     */
    public SpaceProblem withLimit(long newLimit) {
        requireLimit(newLimit);
        return new SpaceProblem(space, names, reserved, alignment, first, last, fixedOffset, newLimit, true);
    }

    /**
     * The sub-problem of the items {@code keep} (indices into this problem, each at most once,
     * in the order wanted): an index outside {@code 0..size()-1} or given twice is
     * {@code invalid-input} at {@code keep[k]}.
     */
    public SpaceProblem subset(int[] keep) {
        int n = Objects.requireNonNull(keep, "keep").length;
        boolean[] kept = new boolean[names.length];
        for (int k = 0; k < n; k++) {
            int i = keep[k];
            if (i < 0 || i >= names.length) {
                throw Require.invalid("keep[" + k + "]", Integer.toString(i), i
                        + " is not an item of this problem (0.." + (names.length - 1) + ")");
            }
            if (kept[i]) {
                throw Require.invalid("keep[" + k + "]", Integer.toString(i), "item " + i
                        + " ('" + names[i] + "') is kept twice");
            }
            kept[i] = true;
        }
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
        return new SpaceProblem(space, nm, r, a, f, l, x, limit, true);
    }

    /**
     * The lower bound of every placement's height (the highest end of its reservations): the
     * {@linkplain #peakLive most reserved bytes live at one step} or the {@linkplain #fixedTop
     * highest end of a fixed item}, whichever is higher. The one bound of the planner, the
     * minimisation and the exact search. It is a multiple of the {@linkplain #granularity
     * granularity}, as every settled height is, with no rounding: each term is a sum of sizes, or
     * a fixed offset plus a size. An overflow of the live bytes is as {@link #peakLive} says.
     */
    public long lowerBound() {
        return Math.max(peakLive(), fixedTop());
    }

    /**
     * The most reserved bytes live at one step, fixed items included, by the one live-bytes sweep
     * ({@link LiveBytes}); every item is live at a step, so this is at least the largest one. Live
     * bytes past 2^63-1 are {@code arithmetic-overflow}, naming the space when there is one,
     * whatever the solver: the plan holds the peak of live bytes (contract §1, "a sum of sizes"),
     * and host arithmetic outranks the address format.
     */
    public long peakLive() {
        try {
            int n = size();
            int[] first = new int[n];
            int[] last = new int[n];
            long[] reserved = new long[n];
            for (int i = 0; i < n; i++) {
                first[i] = first(i);
                last[i] = last(i);
                reserved[i] = reserved(i);
            }
            return LiveBytes.peak(first, last, reserved).bytes();
        } catch (BerthException e) {
            if (e.category() != Category.ARITHMETIC_OVERFLOW || space == null) {
                throw e;
            }
            Failure.ArithmeticOverflow o = (Failure.ArithmeticOverflow) e.failure();
            throw new BerthException(new Failure.ArithmeticOverflow("space " + space.name() + ": " + o.message(),
                    o.operation(), Facts.NONE.withSpace(space.name())));
        }
    }

    /** The highest end of a fixed item, zero-byte ones included; 0 when no item is fixed. */
    public long fixedTop() {
        long top = 0;
        for (int i = 0; i < names.length; i++) {
            if (fixedOffset[i] >= 0) {
                // at most 2^63-1: the constructor checks every fixed end
                top = Math.max(top, Checked.add(fixedOffset[i], reserved[i]));
            }
        }
        return top;
    }

    /**
     * The largest G such that every offset a canonical placement gives, and so every height, is
     * a multiple of G: the gcd of the positive sizes, the fixed offsets and the alignments above
     * 1 (an offset is 0, a fixed offset, or the top of another item rounded up to an alignment;
     * rounding to alignment 1 changes nothing). 1 when there is nothing to divide.
     */
    public long granularity() {
        long g = 0;
        for (int i = 0; i < names.length; i++) {
            if (reserved[i] > 0) {
                g = Checked.gcd(g, reserved[i]);
            }
            if (fixedOffset[i] > 0) {
                g = Checked.gcd(g, fixedOffset[i]);
            }
            if (fixedOffset[i] < 0 && alignment[i] > 1) {
                g = Checked.gcd(g, alignment[i]);
            }
        }
        return g == 0 ? 1 : g;
    }

    /** True when items {@code i} and {@code j} are live at a common step. */
    public boolean overlapInTime(int i, int j) {
        return first[i] <= last[j] && first[j] <= last[i];
    }
}
