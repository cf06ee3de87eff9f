package dev.berth.admit;

import dev.berth.admit.ContractModel.Outcome;
import dev.berth.admit.ContractModel.SpaceSpec;
import dev.berth.admit.ContractModel.Verdict;
import dev.berth.arith.Boundaries;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The admission check with maximum addresses, starts, sizes, alignments, capacities and bases
 * at and next to 2^31, 2^32, 2^48, 2^62 and 2^63-1, against the {@link ContractModel}: where
 * the planner's own integers would overflow, the model says which limit the contract reports
 * (arithmetic for a reserved size or an lcm; the format for a start or end, even when
 * {@code base + offset} is past 2^63-1).
 */
class AdmissionBoundaryTest {
    private static final long[] NEAR = Boundaries.near();
    private static final long[] ALIGNMENTS = {1, 10, (1L << 31) - 1, (1L << 32) + 1, 1L << 62, Long.MAX_VALUE};

    private static List<SpaceSpec> spaces(long m, boolean exclusive) {
        List<SpaceSpec> l = new ArrayList<>();
        l.add(SpaceSpec.logical(m, exclusive, 1));
        l.add(SpaceSpec.logical(m, exclusive, 10));
        l.add(SpaceSpec.logical(m, exclusive, (1L << 32) + 1));
        l.add(SpaceSpec.local(m, exclusive, 1, 1L << 32, 0));
        l.add(SpaceSpec.local(m, exclusive, 64, Long.MAX_VALUE, 1L << 31));
        l.add(SpaceSpec.external(m, exclusive, 64, 1L << 31, Optional.empty(), 0));
        l.add(SpaceSpec.external(m, exclusive, 1, Long.MAX_VALUE, Optional.empty(), 0));
        if (m < Long.MAX_VALUE) {
            l.add(SpaceSpec.external(m, exclusive, 1, m + 1, Optional.of(1L << 48), 0));
        }
        l.add(SpaceSpec.external(m, exclusive, 10, 1L << 62, Optional.of(1L << 62), 1L << 32));
        return l;
    }

    @Test
    void admissionAgreesWithTheModelAtTheBoundaries() {
        long cases = 0;
        long[] byVerdict = new long[Verdict.values().length];
        List<String> mismatches = new ArrayList<>();
        for (long m : NEAR) {
            for (boolean exclusive : new boolean[] {true, false}) {
                for (SpaceSpec spec : spaces(m, exclusive)) {
                    Space space = spec.toSpace("s");
                    for (long c : NEAR) {
                        for (long r : NEAR) {
                            for (long a : ALIGNMENTS) {
                                cases++;
                                Outcome o = ContractModel.admit(spec, BigInteger.valueOf(c), BigInteger.valueOf(r),
                                        BigInteger.valueOf(a));
                                byVerdict[o.verdict().ordinal()]++;
                                String bad = compare(space, o, c, r, a, Admission.Mode.ALIGNED);
                                if (bad != null && mismatches.size() < 20) {
                                    mismatches.add(spec + " candidate " + c + " requested " + r + " alignment " + a
                                            + ": " + bad);
                                }
                            }
                            cases++;
                            Outcome exact = ContractModel.admitExact(spec, BigInteger.valueOf(c), BigInteger.valueOf(r));
                            byVerdict[exact.verdict().ordinal()]++;
                            String bad = compare(space, exact, c, r, 1, Admission.Mode.EXACT);
                            if (bad != null && mismatches.size() < 20) {
                                mismatches.add(spec + " EXACT offset " + c + " size " + r + ": " + bad);
                            }
                        }
                    }
                }
            }
        }
        System.out.println("AdmissionBoundaryTest: " + cases + " cases compared; by verdict "
                + Arrays.toString(Verdict.values()) + " = " + Arrays.toString(byVerdict)
                + "; " + mismatches.size() + " mismatches");
        assertThat(mismatches).isEmpty();
        for (Verdict v : List.of(Verdict.ACCEPT, Verdict.ARITHMETIC_OVERFLOW, Verdict.NOT_ENCODABLE,
                Verdict.CAPACITY_EXCEEDED)) {
            assertThat(byVerdict[v.ordinal()]).as("cases the model calls %s", v).isPositive();
        }
    }

    /** Null when the admission check agrees with the model, else what differs. */
    private static String compare(Space space, Outcome o, long c, long r, long a, Admission.Mode mode) {
        Placement p;
        try {
            p = Admission.admit(space, "b", c, r, a, mode);
        } catch (BerthException e) {
            Verdict got = switch (e.category()) {
                case ADDRESS_NOT_ENCODABLE -> Verdict.NOT_ENCODABLE;
                case CAPACITY_EXCEEDED -> Verdict.CAPACITY_EXCEEDED;
                case ARITHMETIC_OVERFLOW -> Verdict.ARITHMETIC_OVERFLOW;
                case INVALID_INPUT -> Verdict.INVALID_INPUT;
                case INSUFFICIENT_DEPLOYMENT_CAPACITY -> null;
            };
            if (got != o.verdict()) {
                return "model " + o.verdict() + ", admission threw " + e.getMessage();
            }
            if (got != Verdict.ARITHMETIC_OVERFLOW
                    && e.failure().facts().reserved().orElse(-1) != o.reserved().longValueExact()) {
                return "facts " + e.failure().facts() + " but model reserved " + o.reserved();
            }
            return null;
        }
        if (o.verdict() != Verdict.ACCEPT) {
            return "model " + o.verdict() + ", admission accepted " + p;
        }
        if (p.offset() != o.start().longValueExact() || p.reserved() != o.reserved().longValueExact()
                || p.alignment() != o.effectiveAlignment().longValueExact()
                || !BigInteger.valueOf(p.address()).equals(o.address())) {
            return "accepted " + p + " at address " + p.address() + ", model start " + o.start() + " reserved "
                    + o.reserved() + " alignment " + o.effectiveAlignment() + " address " + o.address();
        }
        return null;
    }

    @Test
    void precedenceAtTheBoundaries() {
        Space tiny = SpaceSpec.local(29, true, 10, 55, 0).toSpace("local");
        // a reserved size past 2^63-1 outranks a start past the format and the capacity
        assertCategory(() -> Admission.admit(tiny, "t", 1000, Long.MAX_VALUE - 1, 1), Category.ARITHMETIC_OVERFLOW);
        // an lcm past 2^63-1 too, even for a zero-byte request
        Space odd = SpaceSpec.logical(Long.MAX_VALUE, true, (1L << 62) + 1).toSpace("g");
        assertCategory(() -> Admission.admit(odd, "t", 0, 0, 1L << 62), Category.ARITHMETIC_OVERFLOW);
        // a start past the format outranks the capacity
        assertCategory(() -> Admission.admit(tiny, "t", 40, 1, 1), Category.ADDRESS_NOT_ENCODABLE);
        // base + offset past 2^63-1 is a start past the format, not an overflow (contract §1)
        Space high = SpaceSpec.external(Long.MAX_VALUE, true, 1, Long.MAX_VALUE - 5, Optional.empty(), 0)
                .toSpace("w");
        assertCategory(() -> Admission.admit(high, "t", 6, 0, 1), Category.ADDRESS_NOT_ENCODABLE);
        assertCategory(() -> Admission.admit(high, "t", Long.MAX_VALUE, 1, 1), Category.ADDRESS_NOT_ENCODABLE);
        assertThat(Admission.admit(high, "t", 5, 0, 1).address()).isEqualTo(Long.MAX_VALUE);
        // an aligned start past 2^63-1 is past every format
        Space wide = SpaceSpec.logical(Long.MAX_VALUE, false, 1).toSpace("g");
        assertCategory(() -> Admission.admit(wide, "t", Long.MAX_VALUE - 1, 0, 10), Category.ADDRESS_NOT_ENCODABLE);
        // input outranks everything
        for (long[] bad : new long[][] {{-1, 1, 1}, {Long.MIN_VALUE, 1, 1}, {0, -1, 1}, {0, 1, 0}, {0, 1, -10},
                {-1, Long.MAX_VALUE, Long.MIN_VALUE}}) {
            assertCategory(() -> Admission.admit(tiny, "t", bad[0], bad[1], bad[2]), Category.INVALID_INPUT);
        }
    }

    @Test
    void messagesNeverShowAWrappedAbsoluteAddress() {
        Space high = SpaceSpec.external(Long.MAX_VALUE, true, 1, Long.MAX_VALUE, Optional.empty(), 0).toSpace("w");
        BerthException e = org.assertj.core.api.Assertions.catchThrowableOfType(BerthException.class,
                () -> Admission.admit(high, "t", 5, 1, 1));
        assertThat(e.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
        // base 2^63-1 + offset 5 = 9223372036854775812, which a long cannot hold: the message must not wrap it
        assertThat(e.failure().message()).doesNotContain("-9223372036854775804").contains("9223372036854775812");
    }

    @Test
    void lastByteAtTheTopOfTheLongRange() {
        Space lastByte = SpaceSpec.logical(Long.MAX_VALUE, false, 1).toSpace("g");
        Space exclusive = SpaceSpec.logical(Long.MAX_VALUE, true, 1).toSpace("g");
        // the whole range 0..2^63-1 has 2^63 bytes: not a representable size, so the largest is 2^63-1
        assertThat(Admission.admit(lastByte, "t", 0, Long.MAX_VALUE, 1).end()).isEqualTo(Long.MAX_VALUE);
        assertThat(Admission.admit(lastByte, "t", 1, Long.MAX_VALUE, 1).offset()).isEqualTo(1);
        assertCategory(() -> Admission.admit(exclusive, "t", 1, Long.MAX_VALUE, 1), Category.ADDRESS_NOT_ENCODABLE);
        assertThat(Admission.admit(lastByte, "t", Long.MAX_VALUE, 1, 1).offset()).isEqualTo(Long.MAX_VALUE);
        assertCategory(() -> Admission.admit(lastByte, "t", Long.MAX_VALUE, 2, 1), Category.ADDRESS_NOT_ENCODABLE);
        assertCategory(() -> Admission.admit(exclusive, "t", Long.MAX_VALUE, 1, 1), Category.ADDRESS_NOT_ENCODABLE);
        assertThat(Admission.admit(exclusive, "t", Long.MAX_VALUE, 0, 1).offset()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void encodableAndEncodableAtAgreeWithTheModel() {
        long cases = 0;
        int rejected = 0;
        List<String> mismatches = new ArrayList<>();
        for (long m : NEAR) {
            for (EndConvention end : EndConvention.values()) {
                AddressFormat f = new AddressFormat("f", m, end);
                SpaceSpec spec = SpaceSpec.logical(m, end == EndConvention.EXCLUSIVE, 1);
                for (long base : NEAR) {
                    for (long offset : NEAR) {
                        for (long bytes : NEAR) {
                            cases++;
                            // the model: base + offset and the range from there, checked by exact arithmetic
                            boolean ok = ContractModel.place(spec.limits(),
                                    BigInteger.valueOf(base).add(BigInteger.valueOf(offset)),
                                    BigInteger.valueOf(bytes)) == Verdict.ACCEPT;
                            rejected += ok ? 0 : 1;
                            String bad = encodableDisagrees(ok, () -> Admission.encodableAt(f, "d", "s", base, offset,
                                    bytes), base + offset);
                            if (bad == null && base == 0) {
                                bad = encodableDisagrees(ok, () -> Admission.encodable(f, "d", "s", offset, bytes), offset);
                            }
                            if (bad != null) {
                                mismatches.add("M " + m + " " + end.id() + " base " + base + " offset " + offset
                                        + " bytes " + bytes + ": " + bad);
                            }
                        }
                    }
                }
            }
        }
        System.out.println("AdmissionBoundaryTest: encodable/encodableAt " + cases + " cases, " + rejected + " rejected");
        assertThat(mismatches).isEmpty();
        assertThat(rejected).isPositive().isLessThan((int) cases);
    }

    /** Null when the check accepts exactly when the model does, with the right address. */
    private static String encodableDisagrees(boolean ok, LongSupplier check, long address) {
        try {
            long got = check.getAsLong();
            return ok && got == address ? null : "accepted at " + got + ", model " + (ok ? "accepts " + address : "rejects");
        } catch (BerthException e) {
            return !ok && e.category() == Category.ADDRESS_NOT_ENCODABLE ? null : "model accepts, threw " + e.getMessage();
        }
    }

    @Test
    void negativeAddressesOrSizesAreInvalidInput() {
        AddressFormat f = new AddressFormat("f", 1L << 32, EndConvention.EXCLUSIVE);
        assertCategory(() -> Admission.encodable(f, "d", "s", -1, 1), Category.INVALID_INPUT);
        assertCategory(() -> Admission.encodable(f, "d", "s", 1, -1), Category.INVALID_INPUT);
        assertCategory(() -> Admission.encodableAt(f, "d", "s", 5, -3, 1), Category.INVALID_INPUT);
        assertCategory(() -> Admission.encodableAt(f, "d", "s", -3, 5, 1), Category.INVALID_INPUT);
        assertCategory(() -> Admission.encodableAt(f, "d", "s", 0, 0, -1), Category.INVALID_INPUT);
    }

    static void assertCategory(Runnable r, Category expected) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(BerthException.class,
                e -> assertThat(e.category()).as(e.getMessage()).isEqualTo(expected));
    }
}
