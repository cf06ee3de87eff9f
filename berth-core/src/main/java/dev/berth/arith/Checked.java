package dev.berth.arith;

import dev.berth.failure.BerthException;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.failure.Require;

/**
 * The one vocabulary of checked arithmetic on sizes and addresses. Every operand and result
 * is a whole number of bytes in 0..2^63-1: a negative operand is {@code invalid-input} whose
 * path is the operation ({@code add}, {@code multiply}, ...) and whose text is that operand, a
 * difference below 0 is {@code invalid-input} too ({@link #subtract}), a result past 2^63-1 is
 * {@code arithmetic-overflow}, detected before the operation that would overflow, and a zero or
 * negative alignment is {@code invalid-input}. Nothing here allocates on the success path, and
 * each check of the operands' signs is one comparison.
 */
public final class Checked {
    /** The largest value the planner's integers hold. */
    public static final long MAX = Long.MAX_VALUE;

    private Checked() {
    }

    /** {@code a + b}, both non-negative. */
    public static long add(long a, long b) {
        if ((a | b) < 0) {
            throw negative("add", a, b, a + " + " + b);
        }
        if (b > MAX - a) {
            throw overflow("add", a + " + " + b);
        }
        return a + b;
    }

    /**
     * {@code a - b}, both non-negative, requiring {@code b <= a}: a difference below 0 is no
     * size, so {@code b > a} is {@code invalid-input} at {@code subtract}, as a negative operand is.
     */
    public static long subtract(long a, long b) {
        if ((a | b) < 0) {
            throw negative("subtract", a, b, a + " - " + b);
        }
        if (b > a) {
            throw Require.invalid("subtract", Long.toString(b), a + " - " + b
                    + " is below 0; a difference of sizes or addresses needs b <= a");
        }
        return a - b;
    }

    /** {@code a * b}, both non-negative. */
    public static long multiply(long a, long b) {
        if ((a | b) < 0) {
            throw negative("multiply", a, b, a + " * " + b);
        }
        if (a != 0 && b > MAX / a) {
            throw overflow("multiply", a + " * " + b);
        }
        return a * b;
    }

    /**
     * Bytes to add to {@code value} (non-negative) to reach the next multiple of {@code alignment}.
     * Never overflows.
     */
    public static long padding(long value, long alignment) {
        requireAlignment(alignment, "alignment");
        if (value < 0) {
            throw negative("padding", value);
        }
        return pad(value, alignment);
    }

    /** {@link #padding} of checked operands. */
    private static long pad(long value, long alignment) {
        long rem = value % alignment;
        return rem == 0 ? 0 : alignment - rem;
    }

    /**
     * The least multiple of {@code alignment} at or above {@code value} (non-negative). The padding
     * is computed first and checked against the room left below 2^63-1 before it is added.
     */
    public static long alignUp(long value, long alignment) {
        requireAlignment(alignment, "alignment");
        if (value < 0) {
            throw negative("align-up", value);
        }
        long pad = pad(value, alignment);
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
        if (value < 0) {
            throw negative("narrow", value);
        }
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
        if ((a | b) < 0) {
            throw negative("saturating-add", a, b, a + " + " + b);
        }
        return b > MAX - a ? MAX : a + b;
    }

    /**
     * {@code alignUp(value, alignment)}, saturating at 2^63-1 like {@link #saturatingAdd}; without a
     * division for the common alignment of one byte (the solvers' inner loops run this per candidate).
     */
    public static long saturatingAlignUp(long value, long alignment) {
        if (value < 0) {
            throw negative("saturating-align-up", value);
        }
        if (alignment == 1) {
            return value;
        }
        requireAlignment(alignment, "alignment");
        long rem = value % alignment;
        return rem == 0 ? value : saturatingAdd(value, alignment - rem);
    }

    /**
     * The greatest common divisor of two non-negative numbers: {@code gcd(a, 0) = a}, so
     * {@code gcd(0, 0) = 0} and a gcd folded over a list can start at 0 (then 0 means every
     * element was 0).
     */
    public static long gcd(long a, long b) {
        if ((a | b) < 0) {
            throw negative("gcd", a, b, "gcd(" + a + ", " + b + ")");
        }
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

    /** {@code invalid-input} at {@code operation}: the first negative of {@code a}, {@code b} in {@code expression}. */
    private static BerthException negative(String operation, long a, long b, String expression) {
        long bad = a < 0 ? a : b;
        return Require.invalid(operation, Long.toString(bad), expression
                + " has the negative operand " + bad + "; sizes and addresses are whole numbers in 0..2^63-1");
    }

    /** {@code invalid-input} at {@code operation}: its operand {@code value} is negative. */
    private static BerthException negative(String operation, long value) {
        return Require.invalid(operation, Long.toString(value), "the value " + value
                + " is negative; sizes and addresses are whole numbers in 0..2^63-1");
    }

    private static BerthException overflow(String operation, String detail) {
        return new BerthException(new Failure.ArithmeticOverflow(
                "host arithmetic overflow in " + operation + ": " + detail, operation, Facts.NONE));
    }
}
