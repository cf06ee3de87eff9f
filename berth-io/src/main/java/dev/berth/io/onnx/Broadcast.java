package dev.berth.io.onnx;

/**
 * Multidirectional (numpy) broadcasting: shapes are aligned from the right and each pair of
 * dimensions must be equal or one of them 1.
 */
final class Broadcast {
    private Broadcast() {
    }

    /** The broadcast shape of {@code shapes}, or {@code invalid-input} naming the node and the dimensions. */
    static Shape shapes(Node n, Shape... shapes) {
        int rank = 0;
        for (Shape s : shapes) {
            rank = Math.max(rank, s.rank());
        }
        long[] out = new long[rank];
        for (int k = 0; k < rank; k++) {
            long d = 1;
            for (Shape s : shapes) {
                int i = s.rank() - rank + k;
                if (i < 0) {
                    continue;
                }
                long e = s.dim(i);
                if (e == d || e == 1) {
                    continue;
                }
                if (d == 1) {
                    d = e;
                } else {
                    throw n.fail("input shapes " + list(shapes) + " cannot be broadcast: dimension " + (k - rank)
                            + " (counted from the end) is " + d + " in one and " + e + " in another");
                }
            }
            out[k] = d;
        }
        return Shape.of(out);
    }

    /**
     * For every element of {@code out} (row-major), the flat index of the element of {@code in}
     * that broadcasting maps to it.
     */
    static int[] indexMap(Shape in, Shape out) {
        int n = (int) out.elements();
        int[] map = new int[n];
        int rank = out.rank();
        long[] inStride = new long[rank];
        long stride = 1;
        for (int k = rank - 1; k >= 0; k--) {
            int i = in.rank() - rank + k;
            if (i >= 0) {
                inStride[k] = in.dim(i) == 1 ? 0 : stride;
                stride *= in.dim(i);
            }
        }
        long[] idx = new long[rank];
        for (int e = 0; e < n; e++) {
            long flat = 0;
            for (int k = 0; k < rank; k++) {
                flat += idx[k] * inStride[k];
            }
            map[e] = (int) flat;
            for (int k = rank - 1; k >= 0; k--) {
                if (++idx[k] < out.dim(k)) {
                    break;
                }
                idx[k] = 0;
            }
        }
        return map;
    }

    private static String list(Shape[] shapes) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < shapes.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(shapes[i]);
        }
        return sb.toString();
    }
}
