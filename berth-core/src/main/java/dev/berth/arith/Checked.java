package dev.berth.arith;

import dev.berth.failure.BerthException;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;

/**
 * The one vocabulary of checked arithmetic on sizes and addresses. Every operand and result
 * is a whole number of bytes in 0..2^63-1; a result past 2^63-1 is {@code arithmetic-overflow},
 * detected before the operation that would overflow, and a zero or negative alignment is
 * {@code invalid-input}. Nothing here allocates on the success path.
 */
public final class Checked {
    /** The largest value the planner's integers hold. */
    public static final long MAX = Long.MAX_VALUE;

    private Checked() {
    }

    /** {@code a + b}, both non-negative. */
    public static long add(long a, long b) {
        assert a >= 0 && b >= 0 : "operands are sizes: " + a + ", " + b;
        if (b > MAX - a) {
            throw overflow("add", a + " + " + b);
        }
        return a + b;
    }

    /** {@code a - b}, requiring {@code b <= a}: a negative size is a bug in the caller. */
    public static long subtract(long a, long b) {
        assert a >= 0 && b >= 0 : "operands are sizes: " + a + ", " + b;
        if (b > a) {
            throw new IllegalArgumentException("negative difference " + a + " - " + b);
        }
        return a - b;
    }

    /** {@code a * b}, both non-negative. */
    public static long multiply(long a, long b) {
        assert a >= 0 && b >= 0 : "operands are sizes: " + a + ", " + b;
        if (a != 0 && b > MAX / a) {
            throw overflow("multiply", a + " * " + b);
        }
        return a * b;
    }

    /** Bytes to add to {@code value} to reach the next multiple of {@code alignment}. Never overflows. */
    public static long padding(long value, long alignment) {
        requireAlignment(alignment, "alignment");
        long rem = value % alignment;
        return rem == 0 ? 0 : alignment - rem;
    }

    /**
     * The least multiple of {@code alignment} at or above {@code value}. The padding is computed
     * first and checked against the room left below 2^63-1 before it is added.
     */
    public static long alignUp(long value, long alignment) {
        assert value >= 0 : "value is a size: " + value;
        long pad = padding(value, alignment);
        if (pad > MAX - value) {
            throw overflow("align-up", "align " + value + " up to a multiple of " + alignment
                    + " needs " + pad + " bytes of padding, but only " + (MAX - value) + " remain below 2^63-1");
        }
        return value + pad;
    }

    /** The least common multiple of two positive alignments. */
    public static long lcm(long a, long b) {
        requireAlignment(a, "alignment");
        requireAlignment(b, "alignment");
        long g = gcd(a, b);
        long q = a / g;
        try {
            // the product's overflow flag, not a second division: lcm runs in every admission
            return Math.multiplyExact(q, b);
        } catch (ArithmeticException e) {
            throw overflow("lcm", "lcm(" + a + ", " + b + ") = " + q + " * " + b + " exceeds 2^63-1");
        }
    }

    /**
     * Narrows {@code value} to an unsigned field of {@code bits} bits (1..63), as a descriptor
     * or instruction field would hold it.
     */
    public static long narrow(long value, int bits) {
        if (bits < 1 || bits > 63) {
            throw BerthException.invalid("bits", Integer.toString(bits), "a field width must be 1..63 bits, got " + bits);
        }
        assert value >= 0;
        long max = bits == 63 ? MAX : (1L << bits) - 1;
        if (value > max) {
            throw overflow("narrow", value + " does not fit in a " + bits + "-bit field (largest " + max + ")");
        }
        return value;
    }

    /**
     * {@code min(a + b, 2^63-1)}. For search candidates only: a saturated value is never an
     * address; the admission check rejects it as past every format, which is the category the
     * contract gives to starts and ends past the limit (§1).
     */
    public static long saturatingAdd(long a, long b) {
        assert a >= 0 && b >= 0;
        return b > MAX - a ? MAX : a + b;
    }

    /**
     * {@code alignUp(value, alignment)}, saturating at 2^63-1 like {@link #saturatingAdd}; without a
     * division for the common alignment of one byte (the solvers' inner loops run this per candidate).
     */
    public static long saturatingAlignUp(long value, long alignment) {
        if (alignment == 1) {
            return value;
        }
        requireAlignment(alignment, "alignment");
        long rem = value % alignment;
        return rem == 0 ? value : saturatingAdd(value, alignment - rem);
    }

    public static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** Rejects a zero or negative alignment as {@code invalid-input}. */
    public static void requireAlignment(long alignment, String path) {
        requireAlignment(alignment, path, "");
    }

    /**
     * {@link #requireAlignment(long, String)} for the path {@code owner + field}, joined only when
     * it is reported (the admission check runs this for every placement).
     */
    public static void requireAlignment(long alignment, String owner, String field) {
        if (alignment <= 0) {
            throw BerthException.invalid(owner + field, Long.toString(alignment),
                    "alignment must be a positive whole number of bytes, got " + alignment);
        }
    }

    private static BerthException overflow(String operation, String detail) {
        return new BerthException(new Failure.ArithmeticOverflow(
                "host arithmetic overflow in " + operation + ": " + detail, operation, Facts.NONE));
    }
}
