package dev.berth.io.onnx;

import java.util.List;
import java.util.Optional;

/**
 * Constant folding of small tensors: exported models compute shapes with integer chains
 * (Shape → Gather → Unsqueeze → Concat → Reshape) and Resize scales with float ones. A result
 * that would not fit its element type, a division by zero or an unknown input leaves the
 * output's values unknown; folding never guesses.
 */
final class Fold {
    /** Outputs with more elements are not folded. */
    static final long LIMIT = 1 << 16;

    private Fold() {
    }

    /** True when every listed input's values are known and the output is small enough to fold. */
    static boolean ready(Shape out, List<TensorInfo> ins) {
        if (out.elements() > LIMIT) {
            return false;
        }
        for (TensorInfo t : ins) {
            if (t.values().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** True when {@code v} is a value of integer type {@code t}. */
    static boolean fits(ElementType t, long v) {
        return switch (t) {
            case BOOL -> v == 0 || v == 1;
            case INT8 -> v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE;
            case UINT8 -> v >= 0 && v <= 0xFF;
            case INT16 -> v >= Short.MIN_VALUE && v <= Short.MAX_VALUE;
            case UINT16 -> v >= 0 && v <= 0xFFFF;
            case INT32 -> v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE;
            case UINT32 -> v >= 0 && v <= 0xFFFF_FFFFL;
            case UINT64 -> v >= 0;
            default -> true;
        };
    }

    /** Values of type {@code t} from longs, or empty when one does not fit the type. */
    static Optional<Values> ints(ElementType t, long[] v) {
        if (t.kind() == ElementType.Kind.REAL) {
            double[] d = new double[v.length];
            for (int i = 0; i < v.length; i++) {
                d[i] = round(t, v[i]);
            }
            return Optional.of(Values.ofReals(d));
        }
        if (t.kind() != ElementType.Kind.INTEGER) {
            return Optional.empty();
        }
        for (long x : v) {
            if (!fits(t, x)) {
                return Optional.empty();
            }
        }
        return Optional.of(Values.ofInts(v));
    }

    /** A real value stored in type {@code t} (float32 rounds). */
    static double round(ElementType t, double v) {
        return t == ElementType.FLOAT ? (float) v : v;
    }

    /** The binary ops that fold. */
    enum Binary {
        ADD, SUB, MUL, DIV, MOD, FMOD, POW, MAX, MIN, EQUAL, LESS, GREATER, LESS_OR_EQUAL, GREATER_OR_EQUAL, AND, OR, XOR;

        boolean comparison() {
            return this == EQUAL || this == LESS || this == GREATER || this == LESS_OR_EQUAL || this == GREATER_OR_EQUAL;
        }
    }

    /**
     * Folds {@code op} elementwise over broadcast inputs {@code a} and {@code b} into an output of
     * shape {@code out} and type {@code outType}, or empty when it cannot be folded exactly.
     */
    static Optional<Values> binary(Binary op, TensorInfo a, TensorInfo b, Shape out, ElementType outType) {
        if (!ready(out, List.of(a, b))) {
            return Optional.empty();
        }
        Values va = a.values().get();
        Values vb = b.values().get();
        int[] ia = Broadcast.indexMap(a.shape(), out);
        int[] ib = Broadcast.indexMap(b.shape(), out);
        int n = ia.length;
        if (va.integral() && vb.integral()) {
            long[] r = new long[n];
            for (int i = 0; i < n; i++) {
                long x = va.longAt(ia[i]);
                long y = vb.longAt(ib[i]);
                try {
                    r[i] = switch (op) {
                        case ADD -> Math.addExact(x, y);
                        case SUB -> Math.subtractExact(x, y);
                        case MUL -> Math.multiplyExact(x, y);
                        case DIV -> {
                            if (y == 0) {
                                throw new ArithmeticException("division by zero");
                            }
                            yield x / y;
                        }
                        case MOD -> Math.floorMod(x, y);
                        case FMOD -> x % y;
                        case POW -> pow(x, y);
                        case MAX -> Math.max(x, y);
                        case MIN -> Math.min(x, y);
                        case EQUAL -> x == y ? 1 : 0;
                        case LESS -> x < y ? 1 : 0;
                        case GREATER -> x > y ? 1 : 0;
                        case LESS_OR_EQUAL -> x <= y ? 1 : 0;
                        case GREATER_OR_EQUAL -> x >= y ? 1 : 0;
                        case AND -> (x != 0 && y != 0) ? 1 : 0;
                        case OR -> (x != 0 || y != 0) ? 1 : 0;
                        case XOR -> ((x != 0) != (y != 0)) ? 1 : 0;
                    };
                } catch (ArithmeticException e) {
                    return Optional.empty();
                }
            }
            return ints(outType, r);
        }
        if (op == Binary.AND || op == Binary.OR || op == Binary.XOR || op == Binary.MOD) {
            return Optional.empty();
        }
        double[] r = new double[n];
        long[] cmp = op.comparison() ? new long[n] : null;
        for (int i = 0; i < n; i++) {
            double x = va.doubleAt(ia[i]);
            double y = vb.doubleAt(ib[i]);
            switch (op) {
                case ADD -> r[i] = x + y;
                case SUB -> r[i] = x - y;
                case MUL -> r[i] = x * y;
                case DIV -> r[i] = x / y;
                case FMOD -> r[i] = x % y;
                case POW -> r[i] = Math.pow(x, y);
                case MAX -> r[i] = Math.max(x, y);
                case MIN -> r[i] = Math.min(x, y);
                case EQUAL -> cmp[i] = x == y ? 1 : 0;
                case LESS -> cmp[i] = x < y ? 1 : 0;
                case GREATER -> cmp[i] = x > y ? 1 : 0;
                case LESS_OR_EQUAL -> cmp[i] = x <= y ? 1 : 0;
                case GREATER_OR_EQUAL -> cmp[i] = x >= y ? 1 : 0;
                default -> {
                    return Optional.empty();
                }
            }
            r[i] = round(outType, r[i]);
        }
        if (cmp != null) {
            return Optional.of(Values.ofInts(cmp));
        }
        if (outType.kind() != ElementType.Kind.REAL) {
            return Optional.empty();
        }
        return Optional.of(Values.ofReals(r));
    }

    private static long pow(long x, long y) {
        if (y < 0) {
            throw new ArithmeticException("negative exponent");
        }
        long r = 1;
        for (long i = 0; i < y; i++) {
            r = Math.multiplyExact(r, x);
        }
        return r;
    }

    /** Converts values to element type {@code to} as Cast does, or empty when not exact. */
    static Optional<Values> cast(Values v, ElementType to) {
        int n = v.size();
        if (to == ElementType.BOOL) {
            long[] r = new long[n];
            for (int i = 0; i < n; i++) {
                r[i] = v.doubleAt(i) != 0 || (v.integral() && v.longAt(i) != 0) ? 1 : 0;
            }
            return Optional.of(Values.ofInts(r));
        }
        if (to.kind() == ElementType.Kind.INTEGER) {
            long[] r = new long[n];
            for (int i = 0; i < n; i++) {
                if (v.integral()) {
                    r[i] = v.longAt(i);
                } else {
                    double d = v.doubleAt(i);
                    if (Double.isNaN(d) || Double.isInfinite(d) || Math.abs(d) >= 0x1p63) {
                        return Optional.empty();
                    }
                    r[i] = (long) d;
                }
            }
            return ints(to, r);
        }
        if (to.kind() == ElementType.Kind.REAL) {
            double[] r = new double[n];
            for (int i = 0; i < n; i++) {
                r[i] = round(to, v.doubleAt(i));
            }
            return Optional.of(Values.ofReals(r));
        }
        return Optional.empty();
    }

    /** Row-major strides of a shape (the caller checked it is small). */
    static long[] strides(Shape s) {
        long[] st = new long[s.rank()];
        long acc = 1;
        for (int k = s.rank() - 1; k >= 0; k--) {
            st[k] = acc;
            acc *= s.dim(k);
        }
        return st;
    }

    /** Values picked by flat index. */
    static Values pick(Values v, int[] idx) {
        if (v.integral()) {
            long[] r = new long[idx.length];
            for (int i = 0; i < idx.length; i++) {
                r[i] = v.longAt(idx[i]);
            }
            return Values.ofInts(r);
        }
        double[] r = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            r[i] = v.doubleAt(idx[i]);
        }
        return Values.ofReals(r);
    }
}
