package dev.berth.workload;

import dev.berth.failure.Require;

/** Inclusive step interval {@code [first, last]}, {@code 0 <= first <= last <= 2^31-1}. */
public record Lifetime(int first, int last) {
    public Lifetime {
        if (first < 0) {
            throw Require.invalid("live", "[" + first + ", " + last + "]", "[" + first + ", " + last
                    + "]: steps are whole numbers in 0..2^31-1");
        }
        if (last < first) {
            throw Require.invalid("live", "[" + first + ", " + last + "]", "[" + first + ", " + last
                    + "] is reversed: last must be at least first (steps are inclusive)");
        }
    }

    /** {@code [first, last]}, inclusive. */
    public static Lifetime of(int first, int last) {
        return new Lifetime(first, last);
    }

    /** True when both are live at some common step. */
    public boolean overlaps(Lifetime o) {
        return first <= o.last && o.first <= last;
    }

    @Override
    public String toString() {
        return "[" + first + ", " + last + "]";
    }
}
