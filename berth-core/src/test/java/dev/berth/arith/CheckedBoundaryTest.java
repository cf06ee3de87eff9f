package dev.berth.arith;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.function.LongBinaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every operation of {@link Checked} at and next to 2^31, 2^32, 2^48, 2^62 and 2^63-1 (and on
 * small values), each pair of operands compared with the exact {@link BigInteger} result:
 * a result that fits must be returned exactly, one past 2^63-1 must be
 * {@code arithmetic-overflow}, and a zero or negative alignment {@code invalid-input}.
 */
class CheckedBoundaryTest {
    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

    static long[] values() {
        return Boundaries.values();
    }

    static long[] alignments() {
        return Boundaries.alignments();
    }

    private static BigInteger big(long v) {
        return BigInteger.valueOf(v);
    }

    private static long checks;

    /** Runs {@code op} and compares with the exact result: equal when it fits, arithmetic-overflow when not. */
    private static void expect(String what, LongBinaryOperator op, long a, long b, BigInteger exact) {
        checks++;
        if (exact.compareTo(MAX) <= 0) {
            long got;
            try {
                got = op.applyAsLong(a, b);
            } catch (BerthException e) {
                fail(what + "(" + a + ", " + b + ") = " + exact + " fits but threw " + e.getMessage());
                return;
            }
            assertThat(got).as("%s(%s, %s)", what, a, b).isEqualTo(exact.longValueExact());
        } else {
            assertThatThrownBy(() -> op.applyAsLong(a, b)).as("%s(%s, %s) = %s", what, a, b, exact)
                    .isInstanceOfSatisfying(BerthException.class,
                            e -> assertThat(e.category()).isEqualTo(Category.ARITHMETIC_OVERFLOW));
        }
    }

    @Test
    void addMultiplySubtractAgreeWithBigInteger() {
        long[] vs = values();
        int overflows = 0;
        for (long a : vs) {
            for (long b : vs) {
                BigInteger sum = big(a).add(big(b));
                BigInteger product = big(a).multiply(big(b));
                expect("add", Checked::add, a, b, sum);
                expect("multiply", Checked::multiply, a, b, product);
                overflows += (sum.compareTo(MAX) > 0 ? 1 : 0) + (product.compareTo(MAX) > 0 ? 1 : 0);
                assertThat(Checked.saturatingAdd(a, b)).isEqualTo(sum.min(MAX).longValueExact());
                if (b <= a) {
                    assertThat(Checked.subtract(a, b)).isEqualTo(a - b);
                } else {
                    assertThatThrownBy(() -> Checked.subtract(a, b)).isInstanceOfSatisfying(BerthException.class, e -> {
                        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                        assertThat(e.failure().fields()).containsEntry("path", "subtract")
                                .containsEntry("text", Long.toString(b));
                    });
                }
            }
        }
        assertThat(overflows).as("the boundary values must overflow somewhere").isPositive();
        System.out.println("CheckedBoundaryTest: add/multiply/subtract " + vs.length * vs.length + " pairs, "
                + overflows + " overflows");
    }

    @Test
    void paddingAndAlignUpAgreeWithBigIntegerForAnyPositiveAlignment() {
        long[] vs = values();
        int overflows = 0;
        int n = 0;
        for (long v : vs) {
            for (long al : alignments()) {
                BigInteger[] qr = big(v).divideAndRemainder(big(al));
                BigInteger pad = qr[1].signum() == 0 ? BigInteger.ZERO : big(al).subtract(qr[1]);
                BigInteger up = big(v).add(pad);
                assertThat(Checked.padding(v, al)).as("padding(%s, %s)", v, al).isEqualTo(pad.longValueExact());
                expect("alignUp", Checked::alignUp, v, al, up);
                assertThat(Checked.saturatingAlignUp(v, al)).as("saturatingAlignUp(%s, %s)", v, al)
                        .isEqualTo(up.min(MAX).longValueExact());
                overflows += up.compareTo(MAX) > 0 ? 1 : 0;
                n++;
            }
        }
        assertThat(overflows).isPositive();
        System.out.println("CheckedBoundaryTest: padding/alignUp " + n + " pairs, " + overflows + " overflows");
    }

    @Test
    void lcmAgreesWithBigInteger() {
        long[] as = alignments();
        int overflows = 0;
        for (long a : as) {
            for (long b : as) {
                BigInteger exact = big(a).multiply(big(b)).divide(big(a).gcd(big(b)));
                expect("lcm", Checked::lcm, a, b, exact);
                overflows += exact.compareTo(MAX) > 0 ? 1 : 0;
            }
        }
        assertThat(overflows).isPositive();
        // lcm itself overflows although both operands and their product's factors are representable
        expect("lcm", Checked::lcm, (1L << 62) - 1, 1L << 62, big((1L << 62) - 1).shiftLeft(62));
        assertThat(Checked.lcm(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(Checked.lcm(10, 4)).isEqualTo(20);
    }

    @Test
    void narrowKeepsValuesThatFitTheFieldAndRejectsTheNextOne() {
        for (int bits = 1; bits <= 63; bits++) {
            BigInteger limit = BigInteger.ONE.shiftLeft(bits); // first value that does not fit
            for (long v : values()) {
                int width = bits;
                expect("narrow" + bits, (x, unused) -> Checked.narrow(x, width), v, 0,
                        big(v).compareTo(limit) < 0 ? big(v) : MAX.add(BigInteger.ONE));
            }
            if (bits < 63) {
                long largest = limit.subtract(BigInteger.ONE).longValueExact();
                int width = bits;
                assertThat(Checked.narrow(largest, bits)).isEqualTo(largest);
                assertThatThrownBy(() -> Checked.narrow(largest + 1, width))
                        .isInstanceOfSatisfying(BerthException.class,
                                e -> assertThat(e.category()).isEqualTo(Category.ARITHMETIC_OVERFLOW));
            }
        }
        for (int bad : new int[] {0, -1, 64, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> Checked.narrow(1, bad)).isInstanceOfSatisfying(BerthException.class,
                    e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT));
        }
    }

    @Test
    void zeroOrNegativeAlignmentIsInvalidInputEverywhere() {
        for (long bad : new long[] {0, -1, -10, Long.MIN_VALUE}) {
            List<Runnable> calls = List.of(
                    () -> Checked.padding(27, bad),
                    () -> Checked.alignUp(27, bad),
                    () -> Checked.lcm(bad, 10),
                    () -> Checked.lcm(10, bad),
                    () -> Checked.saturatingAlignUp(27, bad),
                    () -> Checked.requireAlignment(bad, "x.alignment"));
            for (Runnable call : calls) {
                assertThatThrownBy(call::run).as("alignment %s", bad).isInstanceOfSatisfying(BerthException.class,
                        e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT));
            }
        }
    }

    /** {@code op} fails with {@code invalid-input} whose path is {@code operation} and whose text is {@code bad}. */
    private static void negative(String operation, long bad, Runnable op) {
        assertThatThrownBy(op::run).as("%s with %s", operation, bad).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.failure().fields()).containsEntry("path", operation).containsEntry("text", Long.toString(bad));
            assertThat(e.failure().message()).startsWith(operation + ": ").contains(Long.toString(bad));
        });
    }

    @Test
    void aNegativeOperandIsInvalidInputNamingTheOperationAndTheOperand() {
        for (long bad : new long[] {-1, -10, Long.MIN_VALUE, -(1L << 32)}) {
            for (long good : new long[] {0, 1, 10, Long.MAX_VALUE}) {
                negative("add", bad, () -> Checked.add(bad, good));
                negative("add", bad, () -> Checked.add(good, bad));
                negative("subtract", bad, () -> Checked.subtract(bad, good));
                negative("subtract", bad, () -> Checked.subtract(good, bad));
                negative("multiply", bad, () -> Checked.multiply(bad, good));
                negative("multiply", bad, () -> Checked.multiply(good, bad));
                negative("saturating-add", bad, () -> Checked.saturatingAdd(bad, good));
                negative("saturating-add", bad, () -> Checked.saturatingAdd(good, bad));
                negative("gcd", bad, () -> Checked.gcd(bad, good));
                negative("gcd", bad, () -> Checked.gcd(good, bad));
            }
            for (long al : new long[] {1, 4, 10, Long.MAX_VALUE}) {
                negative("padding", bad, () -> Checked.padding(bad, al));
                negative("align-up", bad, () -> Checked.alignUp(bad, al));
                negative("saturating-align-up", bad, () -> Checked.saturatingAlignUp(bad, al));
            }
            negative("narrow", bad, () -> Checked.narrow(bad, 32));
        }
        // both negative: the first is named
        negative("add", -3, () -> Checked.add(-3, -4));
        negative("multiply", -3, () -> Checked.multiply(-3, -4));
    }

    @Test
    void gcdOfZeroIsTheOtherOperand() {
        assertThat(Checked.gcd(0, 0)).isZero();
        assertThat(Checked.gcd(0, 12)).isEqualTo(12);
        assertThat(Checked.gcd(12, 0)).isEqualTo(12);
        assertThat(Checked.gcd(12, 18)).isEqualTo(6);
        assertThat(Checked.gcd(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void alignUpDetectsOverflowBeforeTheAdditionAndSaysWhy() {
        // 2^63-2 aligned up to 10: 9223372036854775806 % 10 = 6, padding 4, only 1 remains
        assertThatThrownBy(() -> Checked.alignUp(Long.MAX_VALUE - 1, 10))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.ARITHMETIC_OVERFLOW);
                    assertThat(e.failure().message()).contains("needs 4 bytes of padding").contains("only 1 remain");
                });
        assertThat(Checked.alignUp(Long.MAX_VALUE - 7, 10)).isEqualTo(Long.MAX_VALUE - 7); // ...800 is a multiple of 10
    }
}
