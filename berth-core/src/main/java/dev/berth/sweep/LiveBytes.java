package dev.berth.sweep;

import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.failure.Require;

import java.util.Arrays;
import java.util.Objects;

/**
 * Reserved bytes live per step, in one sweep over start and end events: the peak (the lower
 * bound of any placement, the {@code peakLive} metric) and the first step that has it, or the
 * first step where a limit is passed. The one implementation for the planner, the solvers'
 * lower bounds, the capacity diagnosis and the command line; the plan validator recomputes the
 * figure with its own code.
 *
 * <p>Item {@code i} holds {@code reserved[i]} bytes over the steps {@code first[i]..last[i]}
 * ({@code 0 <= first <= last <= 2^31-1}, {@code reserved >= 0}: anything else, or arrays of
 * different lengths, is {@code invalid-input} naming the array and the index, e.g.
 * {@code last[3]}; a null array is a NullPointerException naming it). The sums are checked:
 * a step whose live bytes pass 2^63-1 is {@code arithmetic-overflow}. At one step, the bytes of
 * the items that ended before it are taken away before those of the items that start there are
 * added, so every partial sum is at most the live bytes of this step or the one before: the
 * check fails exactly when some step's live bytes overflow.
 *
 * <p>When the steps are dense (no more than {@link #DENSE_STEPS_PER_ITEM} per item), the events
 * are counted per step; otherwise they are packed one per {@code long} and sorted. Either way
 * the sweep allocates two arrays, never an object per item.
 */
public final class LiveBytes {
    /** Up to this many steps per item in the span of the steps, events are counted per step instead of sorted. */
    static final int DENSE_STEPS_PER_ITEM = 2;

    /**
     * The most reserved bytes live at one step and the first step that has them; {@code step}
     * is -1 exactly when no byte is live at any step (no items, or only empty ones).
     */
    public record Peak(long bytes, int step) {
        /** No byte live at any step. */
        public static final Peak NONE = new Peak(0, -1);

        /** {@code invalid-input} at {@code bytes} or {@code step} unless both are as described. */
        public Peak {
            if (bytes < 0) {
                throw Require.invalid("bytes", Long.toString(bytes), "a peak of live bytes cannot be "
                        + "negative, got " + bytes);
            }
            if (step < -1 || (bytes == 0) != (step == -1)) {
                throw Require.invalid("step", Integer.toString(step), "a peak of " + bytes + " bytes is "
                        + (bytes == 0 ? "at no step (-1)" : "at a step 0..2^31-1") + ", got " + step);
            }
        }
    }

    private LiveBytes() {
    }

    /** The most bytes live at one step and the first step that has them. */
    public static Peak peak(int[] first, int[] last, long[] reserved) {
        return sweep(first, last, reserved, Long.MAX_VALUE);
    }

    /**
     * The first step whose live bytes exceed {@code limit} (0..2^63-1, else {@code invalid-input}
     * at {@code limit}), with those bytes, or the {@linkplain #peak peak} when no step does.
     */
    public static Peak firstAbove(int[] first, int[] last, long[] reserved, long limit) {
        if (limit < 0) {
            throw Require.invalid("limit", Long.toString(limit), "must be a whole number of bytes in "
                    + "0..2^63-1, got " + limit);
        }
        return sweep(first, last, reserved, limit);
    }

    private static Peak sweep(int[] first, int[] last, long[] reserved, long limit) {
        int n = Objects.requireNonNull(first, "first").length;
        Objects.requireNonNull(last, "last");
        Objects.requireNonNull(reserved, "reserved");
        if (last.length != n) {
            throw lengths("last", last.length, n);
        }
        if (reserved.length != n) {
            throw lengths("reserved", reserved.length, n);
        }
        if (n == 0) {
            return Peak.NONE;
        }
        int lo = Integer.MAX_VALUE;
        int hi = 0;
        for (int i = 0; i < n; i++) {
            if (first[i] < 0 || last[i] < first[i] || reserved[i] < 0) {
                throw badItem(first, last, reserved, i);
            }
            lo = Math.min(lo, first[i]);
            hi = Math.max(hi, last[i]);
        }
        long span = (long) hi - lo + 1;
        // span is at most 2^31: counted only below Integer.MAX_VALUE, where the cast is exact
        return span <= (long) DENSE_STEPS_PER_ITEM * n && span < Integer.MAX_VALUE
                ? counted(first, last, reserved, limit, lo, (int) span) : sorted(first, last, reserved, limit);
    }

    /** Dense steps: the bytes starting and the bytes ending per step of {@code [lo, lo + span)}, then one pass. */
    static Peak counted(int[] first, int[] last, long[] reserved, long limit, int lo, int span) {
        // starting[s]: bytes of the items that start at lo + s; ending[s]: of those whose last step is lo + s - 1
        long[] starting = new long[span];
        long[] ending = new long[span + 1];
        for (int i = 0; i < first.length; i++) {
            int s = first[i] - lo;
            // the bytes starting at one step are live there; those ending at one step were live at the step before
            starting[s] = add(starting[s], reserved[i], first[i]);
            int e = last[i] - lo + 1;
            ending[e] = add(ending[e], reserved[i], last[i]);
        }
        long live = 0;
        long best = 0;
        int bestStep = -1;
        for (int s = 0; s < span; s++) {
            live = add(live - ending[s], starting[s], lo + s);
            if (live > best) {
                best = live;
                bestStep = lo + s;
                if (best > limit) {
                    break;
                }
            }
        }
        return new Peak(best, bestStep);
    }

    /** Sparse steps: events packed one per {@code long} and sorted by step, ends before starts. */
    static Peak sorted(int[] first, int[] last, long[] reserved, long limit) {
        int n = first.length;
        long[] ev = new long[2 * n];
        for (int i = 0; i < n; i++) {
            // step (at most 2^31) in the high 32 bits, then 0 for an end and 1 for a start, then the
            // item; the sign bit is flipped so that a signed sort gives the unsigned order
            ev[2 * i] = (((long) first[i] << 32) | START | i) ^ Long.MIN_VALUE;
            ev[2 * i + 1] = ((((long) last[i] + 1) << 32) | i) ^ Long.MIN_VALUE;
        }
        Arrays.sort(ev);
        long live = 0;
        long best = 0;
        int bestStep = -1;
        int k = 0;
        while (k < ev.length) {
            long step = (ev[k] ^ Long.MIN_VALUE) >>> 32;
            for (; k < ev.length && ((ev[k] ^ Long.MIN_VALUE) >>> 32) == step; k++) {
                long e = ev[k] ^ Long.MIN_VALUE;
                int i = (int) (e & ITEM); // 31 bits: an index below 2^31
                live = (e & START) != 0 ? add(live, reserved[i], first[i]) : live - reserved[i];
            }
            if (live > best) {
                // bytes are live at this step, so it is some item's first step: below 2^31
                assert step <= Integer.MAX_VALUE;
                best = live;
                bestStep = (int) step;
                if (best > limit) {
                    break;
                }
            }
        }
        return new Peak(best, bestStep);
    }

    private static BerthException lengths(String array, int length, int n) {
        return Require.invalid(array, Integer.toString(length), length
                + " entries, but first has " + n + "; every array has one entry per item");
    }

    /** {@code invalid-input} naming the first wrong entry of item {@code i}. */
    private static BerthException badItem(int[] first, int[] last, long[] reserved, int i) {
        if (first[i] < 0) {
            return Require.invalid("first[" + i + "]", Integer.toString(first[i]), "a step is 0..2^31-1, got "
                    + first[i]);
        }
        if (last[i] < first[i]) {
            return Require.invalid("last[" + i + "]", Integer.toString(last[i]), last[i] + " is before the first step "
                    + first[i] + "; an item is live over first..last");
        }
        return Require.invalid("reserved[" + i + "]", Long.toString(reserved[i]),
                "must be a whole number of bytes in 0..2^63-1, got " + reserved[i]);
    }

    private static final long START = 1L << 31;
    private static final long ITEM = START - 1;

    /** {@code live + bytes} at {@code step}, or {@code arithmetic-overflow} naming the step. */
    private static long add(long live, long bytes, int step) {
        try {
            return Checked.add(live, bytes);
        } catch (BerthException e) {
            throw new BerthException(new Failure.ArithmeticOverflow("the reserved bytes live at step " + step
                    + " pass 2^63-1 (" + live + " + " + bytes + ")", "add", Facts.NONE));
        }
    }
}
