package dev.berth.io.onnx;

import java.util.Arrays;

/**
 * The known contents of a small tensor, in row-major order, as the importer folds them:
 * whole numbers and booleans as {@code long}, floating-point numbers as {@code double}.
 * Shape chains (Shape → Gather → Concat → Reshape) and Resize scales are computed with these.
 */
final class Values {
    private final long[] ints;
    private final double[] reals;

    private Values(long[] ints, double[] reals) {
        this.ints = ints;
        this.reals = reals;
    }

    /** Whole numbers (or booleans as 0/1). */
    public static Values ofInts(long... v) {
        return new Values(v.clone(), null);
    }

    /** Floating-point numbers. */
    public static Values ofReals(double... v) {
        return new Values(null, v.clone());
    }

    /** True when the values are whole numbers (an integer or boolean tensor). */
    public boolean integral() {
        return ints != null;
    }

    public int size() {
        return ints != null ? ints.length : reals.length;
    }

    /** The whole number at {@code i}; for real values, only when it is a whole number. */
    public long longAt(int i) {
        if (ints != null) {
            return ints[i];
        }
        double d = reals[i];
        if (d != Math.rint(d) || Double.isInfinite(d) || Math.abs(d) > 0x1p62) {
            throw new IllegalStateException("not a whole number: " + d);
        }
        return (long) d;
    }

    public double doubleAt(int i) {
        return ints != null ? ints[i] : reals[i];
    }

    /** A copy of the whole numbers; the caller checked {@link #integral()}. */
    public long[] longs() {
        if (ints == null) {
            throw new IllegalStateException("real values have no exact long form");
        }
        return ints.clone();
    }

    /** A copy, as doubles. */
    public double[] doubles() {
        if (reals != null) {
            return reals.clone();
        }
        double[] d = new double[ints.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = ints[i];
        }
        return d;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Values v && Arrays.equals(ints, v.ints) && Arrays.equals(reals, v.reals);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(ints) + Arrays.hashCode(reals);
    }

    @Override
    public String toString() {
        String s = ints != null ? Arrays.toString(ints) : Arrays.toString(reals);
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }
}
