package dev.berth.plan;

import dev.berth.arith.Checked;

import java.util.Arrays;

/**
 * Reserved bytes live per step, by a sweep over start and end events: the peak (the lower
 * bound of any placement) and the first step where a limit is passed. The planner's own
 * code; the validator recomputes the same figure separately.
 */
public final class LiveBytes {
    /** The peak and the first step that reaches it. */
    public record Peak(long bytes, int step) {
    }

    private LiveBytes() {
    }

    /** The most bytes live at one step and the first step that has them. */
    public static Peak peak(int[] first, int[] last, long[] reserved) {
        return scan(first, last, reserved, Long.MAX_VALUE);
    }

    /** The first step whose live bytes exceed {@code limit} (with those bytes), or the peak if none does. */
    static Peak firstAbove(int[] first, int[] last, long[] reserved, long limit) {
        return scan(first, last, reserved, limit);
    }

    private static Peak scan(int[] first, int[] last, long[] reserved, long limit) {
        int n = first.length;
        long[] ev = new long[2 * n];
        for (int i = 0; i < n; i++) {
            // unsigned key: step (up to 2^31) in the high 32 bits, an end flag, the index; the sign
            // bit is flipped so that a signed sort gives the unsigned order
            ev[2 * i] = (((long) first[i] << 32) | i) ^ Long.MIN_VALUE;
            ev[2 * i + 1] = ((((long) last[i] + 1) << 32) | (1L << 31) | i) ^ Long.MIN_VALUE;
        }
        Arrays.sort(ev);
        for (int q = 0; q < ev.length; q++) {
            ev[q] ^= Long.MIN_VALUE;
        }
        long live = 0;
        long best = 0;
        int bestStep = 0;
        int k = 0;
        while (k < ev.length) {
            long step = ev[k] >>> 32;
            while (k < ev.length && (ev[k] >>> 32) == step) {
                int i = (int) (ev[k] & 0x7FFF_FFFFL);
                if ((ev[k] & (1L << 31)) == 0) {
                    live = Checked.add(live, reserved[i]);
                } else {
                    live -= reserved[i];
                }
                k++;
            }
            if (live > best) {
                best = live;
                bestStep = (int) step;
                if (best > limit) {
                    return new Peak(best, bestStep);
                }
            }
        }
        return new Peak(best, bestStep);
    }
}
