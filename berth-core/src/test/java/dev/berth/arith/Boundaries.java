package dev.berth.arith;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** The boundary values the tests use: at and next to 2^31, 2^32, 2^48, 2^62 and 2^63-1. */
public final class Boundaries {
    private Boundaries() {
    }

    /** The powers the contract's numbers cross: int, unsigned int, 48-bit addresses, 2^62, and 2^63-1 itself. */
    public static final long[] ANCHORS = {1L << 31, 1L << 32, 1L << 48, 1L << 62, Long.MAX_VALUE};

    /** Values at and next to each anchor, plus small ones; all in 0..2^63-1, ascending. */
    public static long[] values() {
        TreeSet<Long> s = new TreeSet<>(List.of(0L, 1L, 2L, 3L, 7L, 10L, 24L, 64L, 1000L));
        for (long p : new long[] {1L << 31, 1L << 32, 1L << 48, 1L << 62}) {
            for (long d = -2; d <= 2; d++) {
                s.add(p + d);
            }
            s.add(p / 2 * 3); // a non-power of two of the same magnitude
        }
        for (long d = 0; d <= 3; d++) {
            s.add(Long.MAX_VALUE - d);
        }
        s.add(Long.MAX_VALUE / 2);
        s.add(Long.MAX_VALUE / 2 + 1);
        s.add(Long.MAX_VALUE / 3);
        s.add(3037000499L); // floor(sqrt(2^63-1)): its square fits, the next one's does not
        s.add(3037000500L);
        return s.stream().mapToLong(Long::longValue).toArray();
    }

    /** A smaller set: each anchor and its two neighbours, plus 0, 1 and 10. */
    public static long[] near() {
        TreeSet<Long> s = new TreeSet<>(List.of(0L, 1L, 10L));
        for (long p : ANCHORS) {
            s.add(p - 1);
            s.add(p);
            if (p < Long.MAX_VALUE) {
                s.add(p + 1);
            }
        }
        return s.stream().mapToLong(Long::longValue).toArray();
    }

    /** Positive alignments at the boundaries, powers of two and not. */
    public static long[] alignments() {
        List<Long> out = new ArrayList<>();
        for (long v : values()) {
            if (v > 0) {
                out.add(v);
            }
        }
        out.add(3L * 5 * 7 * 11 * 13); // 15015
        out.add(1_000_000_007L);
        out.add((1L << 32) + 1); // 641 * 6700417
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
