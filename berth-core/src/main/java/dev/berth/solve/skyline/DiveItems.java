package dev.berth.solve.skyline;

import dev.berth.arith.Checked;
import dev.berth.solve.SpaceProblem;

/**
 * The items of a dive in the arrays the dives read: dive items {@code 0..m-1} (free items with
 * bytes, in the order given), then the fixed items with bytes {@code m..m+fx-1} (in problem
 * order), each with its size and steps; the dive items also have an alignment, the fixed ones
 * an offset.
 */
final class DiveItems {
    /** Number of dive items. */
    final int m;
    /** Size of every item, dive and fixed. */
    final long[] size;
    final int[] first;
    final int[] last;
    /** Alignment of each dive item. */
    final long[] align;
    /** Offset of each fixed item at {@code m..}; 0 for the dive items. */
    final long[] fixedAt;

    DiveItems(SpaceProblem p, int[] items) {
        this.m = items.length;
        int fx = 0;
        for (int i = 0; i < p.size(); i++) {
            if (p.isFixed(i) && p.reserved(i) > 0) {
                fx++;
            }
        }
        int all = m + fx;
        size = new long[all];
        first = new int[all];
        last = new int[all];
        fixedAt = new long[all];
        align = new long[m];
        for (int k = 0; k < m; k++) {
            int i = items[k];
            size[k] = p.reserved(i);
            first[k] = p.first(i);
            last[k] = p.last(i);
            align[k] = p.alignment(i);
        }
        for (int i = 0, f = m; i < p.size(); i++) {
            if (p.isFixed(i) && p.reserved(i) > 0) {
                size[f] = p.reserved(i);
                first[f] = p.first(i);
                last[f] = p.last(i);
                fixedAt[f] = p.fixedOffset(i);
                f++;
            }
        }
    }

    /** The highest end of the fixed items (those with bytes: the dives' obstacles); 0 when there are none. */
    long fixedTop() {
        long top = 0;
        for (int f = m; f < size.length; f++) {
            top = Math.max(top, Checked.saturatingAdd(fixedAt[f], size[f]));
        }
        return top;
    }

    /** Dive items and fixed items. */
    int all() {
        return size.length;
    }

    /** True when items {@code a} and {@code b} share a step. */
    boolean shareAStep(int a, int b) {
        return first[a] <= last[b] && first[b] <= last[a];
    }
}
