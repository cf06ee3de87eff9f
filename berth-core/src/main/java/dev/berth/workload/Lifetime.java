package dev.berth.workload;

/** Inclusive step interval {@code [first, last]}, {@code 0 <= first <= last <= 2^31-1}. */
public record Lifetime(int first, int last) {
    public Lifetime {
        if (first < 0 || last < first) {
            throw new IllegalArgumentException("lifetime [" + first + ", " + last + "]");
        }
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
