package dev.berth.admit;

import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;

import java.math.BigInteger;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An arbitrary-precision model of the admission rules of contract §3, written from the
 * contract's text alone: it shares no code with {@link Admission} or {@code Checked}. Every
 * quantity is a {@link BigInteger}, so nothing here can overflow; "host arithmetic overflow"
 * is a plain comparison of the exact value with 2^63-1.
 *
 * <p>The rules, in the precedence of contract §1 (input, host arithmetic, format, capacity):
 * <ol>
 *   <li>effective alignment {@code e = lcm(space alignment, alignment)}: above 2^63-1 is arithmetic-overflow;</li>
 *   <li>reserved {@code r = ceil(requested / e) * e}: above 2^63-1 is arithmetic-overflow;</li>
 *   <li>start {@code o = ceil(candidate / e) * e} (never an overflow: a start past the format is
 *       address-not-encodable whatever its size), absolute {@code s = base + o};</li>
 *   <li>format: {@code s <= M} and {@code r <= M - s} (exclusive end) or {@code r == 0 || r - 1 <= M - s} (last byte);</li>
 *   <li>capacity {@code C' = C - runtimeReserve}: {@code o <= C'} and {@code r <= C' - o}.</li>
 * </ol>
 */
final class ContractModel {
    static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** What the contract says about one request. */
    enum Verdict { ACCEPT, INVALID_INPUT, ARITHMETIC_OVERFLOW, NOT_ENCODABLE, CAPACITY_EXCEEDED }

    /** The kind of space; only what the contract distinguishes. */
    enum Kind { LOGICAL, LOCAL, EXTERNAL }

    /**
     * A space in the contract's own terms. {@code capacity} is present for a local space and
     * optional for an external one; {@code base} is 0 but for external spaces.
     */
    record SpaceSpec(Kind kind, long maxAddress, boolean exclusiveEnd, long spaceAlignment, long base,
                     Optional<Long> capacity, long runtimeReserve) {

        static SpaceSpec logical(long maxAddress, boolean exclusiveEnd, long spaceAlignment) {
            return new SpaceSpec(Kind.LOGICAL, maxAddress, exclusiveEnd, spaceAlignment, 0, Optional.empty(), 0);
        }

        static SpaceSpec local(long maxAddress, boolean exclusiveEnd, long spaceAlignment, long capacity,
                               long runtimeReserve) {
            return new SpaceSpec(Kind.LOCAL, maxAddress, exclusiveEnd, spaceAlignment, 0, Optional.of(capacity),
                    runtimeReserve);
        }

        static SpaceSpec external(long maxAddress, boolean exclusiveEnd, long spaceAlignment, long base,
                                  Optional<Long> capacity, long runtimeReserve) {
            return new SpaceSpec(Kind.EXTERNAL, maxAddress, exclusiveEnd, spaceAlignment, base, capacity,
                    runtimeReserve);
        }

        /** The same space as the production type, for the code under test. */
        Space toSpace(String name) {
            AddressFormat f = new AddressFormat("f" + maxAddress, maxAddress,
                    exclusiveEnd ? EndConvention.EXCLUSIVE : EndConvention.LAST_BYTE);
            return switch (kind) {
                case LOGICAL -> new Space.Logical(name, f, spaceAlignment, runtimeReserve);
                case LOCAL -> new Space.Local(name, f, spaceAlignment, runtimeReserve, capacity.orElseThrow());
                case EXTERNAL -> new Space.External(name, f, spaceAlignment, runtimeReserve, base,
                        capacity.isPresent() ? OptionalLong.of(capacity.get()) : OptionalLong.empty());
            };
        }

        /** The model's own view of the limits, computed once per space. */
        Limits limits() {
            Optional<BigInteger> usable = capacity.map(c -> BigInteger.valueOf(c).subtract(BigInteger.valueOf(runtimeReserve)));
            return new Limits(BigInteger.valueOf(maxAddress), exclusiveEnd, BigInteger.valueOf(base), usable);
        }

        @Override
        public String toString() {
            return kind + "(M=" + maxAddress + ", " + (exclusiveEnd ? "exclusive" : "last-byte") + ", align "
                    + spaceAlignment + (kind == Kind.EXTERNAL ? ", base " + base : "")
                    + capacity.map(c -> ", capacity " + c + " - reserve " + runtimeReserve).orElse("") + ")";
        }
    }

    /** The limits of one space as exact numbers; {@code usable} is {@code C - runtimeReserve} when there is a capacity. */
    record Limits(BigInteger maxAddress, boolean exclusiveEnd, BigInteger base, Optional<BigInteger> usable) {
    }

    /** The full outcome of a request: on acceptance the start, reserved size and absolute address. */
    record Outcome(Verdict verdict, BigInteger effectiveAlignment, BigInteger reserved, BigInteger start,
                   BigInteger address) {
    }

    private ContractModel() {
    }

    /** True when {@code v} is a quantity the planner's integers can hold. */
    static boolean representable(BigInteger v) {
        return v.signum() >= 0 && v.compareTo(LONG_MAX) <= 0;
    }

    static BigInteger lcm(BigInteger a, BigInteger b) {
        return a.multiply(b).divide(a.gcd(b));
    }

    /** The least multiple of {@code m} at or above {@code v}, exactly. */
    static BigInteger roundUp(BigInteger v, BigInteger m) {
        BigInteger[] qr = v.divideAndRemainder(m);
        return qr[1].signum() == 0 ? v : qr[0].add(BigInteger.ONE).multiply(m);
    }

    /** Format then capacity for an aligned start {@code start} (offset in the space) and reserved size. */
    static Verdict place(Limits l, BigInteger start, BigInteger reserved) {
        BigInteger s = l.base().add(start);
        if (s.compareTo(l.maxAddress()) > 0) {
            return Verdict.NOT_ENCODABLE;
        }
        BigInteger room = l.maxAddress().subtract(s);
        boolean endOk = l.exclusiveEnd()
                ? reserved.compareTo(room) <= 0
                : reserved.signum() == 0 || reserved.subtract(BigInteger.ONE).compareTo(room) <= 0;
        if (!endOk) {
            return Verdict.NOT_ENCODABLE;
        }
        if (l.usable().isPresent()) {
            BigInteger c = l.usable().get();
            if (start.compareTo(c) > 0 || reserved.compareTo(c.subtract(start)) > 0) {
                return Verdict.CAPACITY_EXCEEDED;
            }
        }
        return Verdict.ACCEPT;
    }

    /** The whole rule for one aligned request. */
    static Outcome admit(SpaceSpec space, BigInteger candidate, BigInteger requested, BigInteger alignment) {
        if (candidate.signum() < 0 || requested.signum() < 0 || alignment.signum() <= 0) {
            return new Outcome(Verdict.INVALID_INPUT, null, null, null, null);
        }
        BigInteger e = lcm(BigInteger.valueOf(space.spaceAlignment()), alignment);
        if (!representable(e)) {
            return new Outcome(Verdict.ARITHMETIC_OVERFLOW, e, null, null, null);
        }
        BigInteger r = roundUp(requested, e);
        if (!representable(r)) {
            return new Outcome(Verdict.ARITHMETIC_OVERFLOW, e, r, null, null);
        }
        BigInteger start = roundUp(candidate, e);
        Limits l = space.limits();
        Verdict v = place(l, start, r);
        return new Outcome(v, e, r, start, l.base().add(start));
    }

    /** An exact request (fixed regions): no rounding, no alignment. */
    static Outcome admitExact(SpaceSpec space, BigInteger offset, BigInteger size) {
        if (offset.signum() < 0 || size.signum() < 0) {
            return new Outcome(Verdict.INVALID_INPUT, null, null, null, null);
        }
        Limits l = space.limits();
        return new Outcome(place(l, offset, size), BigInteger.ONE, size, offset, l.base().add(offset));
    }
}
