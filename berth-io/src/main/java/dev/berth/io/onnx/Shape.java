package dev.berth.io.onnx;

import dev.berth.arith.Checked;
import dev.berth.failure.Require;

import java.util.Arrays;
import java.util.List;

/** A concrete tensor shape: every dimension a known whole number (rank 0 is a scalar). */
public final class Shape {
    /** The shape of a scalar. */
    public static final Shape SCALAR = new Shape(new long[0]);

    private final long[] dims;

    private Shape(long[] dims) {
        this.dims = dims;
    }

    /**
     * A shape of these dimensions; a negative one is {@code invalid-input} naming it
     * ({@code dims[2]}), a null array a NullPointerException naming {@code dims}.
     */
    public static Shape of(long... dims) {
        Require.nonNull(dims, "dims");
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw Require.invalid("dims[" + i + "]", Long.toString(dims[i]), "a dimension "
                        + "is a whole number 0..2^63-1, got " + dims[i] + " in " + Arrays.toString(dims));
            }
        }
        return new Shape(dims.clone());
    }

    /** As {@link #of(long...)}; a null list or element is a NullPointerException naming it ({@code dims[1]}). */
    public static Shape of(List<Long> dims) {
        Require.elements(dims, "dims");
        long[] d = new long[dims.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = dims.get(i);
        }
        return of(d);
    }

    public int rank() {
        return dims.length;
    }

    public long dim(int i) {
        return dims[i];
    }

    /** A copy of the dimensions. */
    public long[] dims() {
        return dims.clone();
    }

    /** The number of elements, with checked arithmetic (1 for a scalar). */
    public long elements() {
        long n = 1;
        for (long d : dims) {
            n = Checked.multiply(n, d);
        }
        return n;
    }

    /** Elements of {@code dims[from..to)}. */
    public long elements(int from, int to) {
        long n = 1;
        for (int i = from; i < to; i++) {
            n = Checked.multiply(n, dims[i]);
        }
        return n;
    }

    /** This shape with dimension {@code i} replaced. */
    public Shape with(int i, long d) {
        long[] c = dims.clone();
        c[i] = d;
        return of(c);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shape s && Arrays.equals(dims, s.dims);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims);
    }

    /** {@code [1, 3, 640, 640]}; {@code []} for a scalar. */
    @Override
    public String toString() {
        return Arrays.toString(dims);
    }
}
