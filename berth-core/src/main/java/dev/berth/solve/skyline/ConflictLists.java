package dev.berth.solve.skyline;

import java.util.Arrays;
import java.util.Optional;

/**
 * Per dive item, the items it shares a step with: item {@code k}'s are {@code list[c]} for
 * {@code from[k] <= c < to[k]}. Either every such item, dive or fixed ({@link #of}, found once
 * by a sweep in start order), or, in a kept run, the freed items among them (rebuilt by
 * {@link KeptRun}; the list grows when needed).
 */
final class ConflictLists {
    final int[] from;
    final int[] to;
    int[] list;

    /** Empty lists for {@code m} dive items. */
    ConflictLists(int m) {
        this(new int[m], new int[m], new int[0]);
    }

    private ConflictLists(int[] from, int[] to, int[] list) {
        this.from = from;
        this.to = to;
        this.list = list;
    }

    /**
     * The conflict lists of the dive items of {@code d}, or none when they would hold more than
     * {@code limit} entries.
     */
    static Optional<ConflictLists> of(DiveItems d, long limit) {
        int m = d.m;
        int all = d.all();
        int[] first = d.first;
        int[] last = d.last;
        Integer[] boxed = new Integer[all];
        for (int k = 0; k < all; k++) {
            boxed[k] = k;
        }
        Arrays.sort(boxed, (a, b) -> first[a] != first[b] ? Integer.compare(first[a], first[b]) : Integer.compare(a, b));
        int[] order = new int[all];
        for (int k = 0; k < all; k++) {
            order[k] = boxed[k];
        }
        int[] degree = new int[m];
        long total = 0;
        for (int x = 0; x < all; x++) {
            int a = order[x];
            for (int y = x + 1; y < all && first[order[y]] <= last[a]; y++) {
                int b = order[y];
                if (a < m) {
                    degree[a]++;
                    total++;
                }
                if (b < m) {
                    degree[b]++;
                    total++;
                }
            }
            if (total > limit) {
                return Optional.empty();
            }
        }
        int[] from = new int[m];
        int[] to = new int[m];
        for (int k = 0, at = 0; k < m; k++) {
            from[k] = at;
            to[k] = at;
            at += degree[k];
        }
        // total is at most the limit, below 2^31
        int[] list = new int[Math.toIntExact(total)];
        for (int x = 0; x < all; x++) {
            int a = order[x];
            for (int y = x + 1; y < all && first[order[y]] <= last[a]; y++) {
                int b = order[y];
                if (a < m) {
                    list[to[a]++] = b;
                }
                if (b < m) {
                    list[to[b]++] = a;
                }
            }
        }
        return Optional.of(new ConflictLists(from, to, list));
    }

    /** Room for {@code total} entries, the ones held kept. */
    void ensure(int total) {
        if (list.length < total) {
            list = Arrays.copyOf(list, Math.max(total, 2 * list.length));
        }
    }

    /** Entries of item {@code k}. */
    int count(int k) {
        return to[k] - from[k];
    }
}
