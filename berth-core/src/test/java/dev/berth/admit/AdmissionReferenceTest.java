package dev.berth.admit;

import dev.berth.admit.ContractModel.Limits;
import dev.berth.admit.ContractModel.SpaceSpec;
import dev.berth.admit.ContractModel.Verdict;
import dev.berth.failure.BerthException;
import dev.berth.failure.Facts;
import dev.berth.target.Space;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exhaustive comparison of {@link Admission#admit} with the independent {@link ContractModel}
 * over small numbers: every maximum address 0..63, both end conventions, candidate starts
 * 0..80, requested sizes 0..80 and alignments 1..24 (powers of two and not), for logical,
 * local (with and without a runtime reserve) and external spaces (bases below and above the
 * maximum address). On acceptance the start, reserved size, alignment and absolute address
 * must agree; on rejection the category (in the precedence of contract §1) and, for one
 * rejection in 128, the facts the message is built from (start, requested, reserved,
 * alignment, limit).
 *
 * <p>The full grid of space alignment 1 (every M, both ends) always runs in full, about 20
 * million cases; the other configurations run on sampled maximum addresses and alignments
 * unless {@code -Pexhaustive} asks for all of them.
 */
class AdmissionReferenceTest {
    private static final int MAX_M = 63;
    private static final int MAX_CANDIDATE = 80;
    private static final int MAX_REQUESTED = 80;
    private static final int MAX_ALIGNMENT = 24;
    private static final String BUFFER = "b";
    /**
     * {@code -Dberth.exhaustive=true} (or {@code mvn -Pexhaustive}): every configuration over the
     * full grid (hundreds of millions of cases, minutes). By default the grid is complete
     * for space alignment 1 and the other configurations use sampled maximum addresses and alignments.
     */
    private static final boolean HEAVY = Boolean.getBoolean("berth.exhaustive");

    private static final Verdict[] VERDICTS = Verdict.values();
    private static final BigInteger[] SMALL = new BigInteger[1024];

    static {
        for (int i = 0; i < SMALL.length; i++) {
            SMALL[i] = BigInteger.valueOf(i);
        }
    }

    /** Counts and the first few disagreements, for the assertion message. */
    private static final class Tally {
        long cases;
        long accepted;
        final long[] byVerdict = new long[VERDICTS.length];
        long mismatches;
        long factsChecked;
        final List<String> firstMismatches = new ArrayList<>();

        void mismatch(SpaceSpec s, long candidate, long requested, long alignment, String what) {
            mismatches++;
            if (firstMismatches.size() < 20) {
                firstMismatches.add(s + " candidate " + candidate + " requested " + requested + " alignment "
                        + alignment + ": " + what);
            }
        }

        /** Rejections by verdict, the ones that occurred. */
        Map<Verdict, Long> rejected() {
            Map<Verdict, Long> m = new LinkedHashMap<>();
            for (Verdict v : VERDICTS) {
                if (v != Verdict.ACCEPT && byVerdict[v.ordinal()] > 0) {
                    m.put(v, byVerdict[v.ordinal()]);
                }
            }
            return m;
        }

        void add(Tally o) {
            cases += o.cases;
            accepted += o.accepted;
            for (int v = 0; v < byVerdict.length; v++) {
                byVerdict[v] += o.byVerdict[v];
            }
            mismatches += o.mismatches;
            factsChecked += o.factsChecked;
            for (String m : o.firstMismatches) {
                if (firstMismatches.size() < 20) {
                    firstMismatches.add(m);
                }
            }
        }

        void report(String label) {
            System.out.println("AdmissionReferenceTest." + label + ": " + cases + " cases compared, " + accepted
                    + " accepted, rejected " + rejected() + " (facts compared for " + factsChecked + "), " + mismatches
                    + " mismatches");
            assertThat(mismatches).as("mismatches, first ones: %s", firstMismatches).isZero();
        }
    }

    /** The base grid's maximum addresses; the other configurations use a sample unless the heavy run is asked for. */
    private static long[] maxAddresses(boolean full) {
        return full || HEAVY ? LongStream.rangeClosed(0, MAX_M).toArray() : new long[] {0, 9, 10, 29, 30, 63};
    }

    /** Alignments 1..24; the sampled configurations keep powers of two and non-powers of two. */
    private static int[] alignments(boolean full) {
        return full || HEAVY ? IntStream.rangeClosed(1, MAX_ALIGNMENT).toArray() : new int[] {1, 2, 3, 5, 6, 7, 10, 12, 16, 24};
    }

    private static List<SpaceSpec> bothEnds(long[] ms, BiFunction<Long, Boolean, List<SpaceSpec>> make) {
        List<SpaceSpec> out = new ArrayList<>();
        for (long m : ms) {
            for (boolean exclusive : new boolean[] {true, false}) {
                out.addAll(make.apply(m, exclusive));
            }
        }
        return out;
    }

    /** The full grid: every M in 0..63, both ends, every candidate, size and alignment, space alignment 1. */
    @Test
    void everyMaxAddressBothEndsSpaceAlignmentOne() {
        List<SpaceSpec> specs = bothEnds(maxAddresses(true), (m, x) -> List.of(SpaceSpec.logical(m, x, 1)));
        Tally t = compareAligned(specs, alignments(true));
        t.report("logical, space alignment 1");
        assertThat(t.cases).isEqualTo(64L * 2 * 81 * 81 * 24);
        assertThat(t.accepted).isPositive();
        assertThat(t.rejected().get(Verdict.NOT_ENCODABLE)).isPositive();
        assertThat(t.rejected()).doesNotContainKey(Verdict.CAPACITY_EXCEEDED);
    }

    @Test
    void logicalSpacesWithOtherSpaceAlignments() {
        List<SpaceSpec> specs = new ArrayList<>();
        for (long spaceAlignment : new long[] {4, 6, 10}) {
            specs.addAll(bothEnds(maxAddresses(false), (m, x) -> List.of(SpaceSpec.logical(m, x, spaceAlignment))));
        }
        Tally t = compareAligned(specs, alignments(false));
        t.report("logical, space alignments 4, 6, 10");
        assertThat(t.accepted).isPositive();
        assertThat(t.rejected().get(Verdict.NOT_ENCODABLE)).isPositive();
        assertThat(t.rejected()).doesNotContainKey(Verdict.CAPACITY_EXCEEDED);
    }

    @Test
    void localSpacesWithCapacitiesAndRuntimeReserves() {
        List<SpaceSpec> specs = new ArrayList<>();
        // capacities below, at and above the format's reach; runtime reserves of none, some and all
        long[][] capacityReserve = {{0, 0}, {29, 0}, {55, 0}, {55, 7}, {40, 40}, {100, 30}};
        long[] ms = HEAVY ? maxAddresses(true) : new long[] {29, 63};
        specs.addAll(bothEnds(ms, (m, x) -> Arrays.stream(capacityReserve)
                .map(cr -> SpaceSpec.local(m, x, 10, cr[0], cr[1])).toList()));
        specs.addAll(bothEnds(HEAVY ? ms : new long[] {63}, (m, x) -> Arrays.stream(capacityReserve)
                .filter(cr -> HEAVY || cr[0] == 29 || cr[1] == 7)
                .map(cr -> SpaceSpec.local(m, x, 1, cr[0], cr[1])).toList()));
        Tally t = compareAligned(specs, alignments(false));
        t.report("local");
        assertThat(t.rejected().get(Verdict.CAPACITY_EXCEEDED)).isPositive();
        assertThat(t.rejected().get(Verdict.NOT_ENCODABLE)).isPositive();
        assertThat(t.accepted).isPositive();
    }

    @Test
    void externalSpacesWithBasesBelowAndAboveTheMaxAddress() {
        long[] ms = HEAVY ? maxAddresses(true) : new long[] {9, 30, 63};
        List<SpaceSpec> specs = new ArrayList<>(bothEnds(ms, (m, x) -> {
            List<SpaceSpec> l = new ArrayList<>();
            // bases inside the format, at M, just above M, far above M and at 2^63-1
            for (long base : HEAVY ? new long[] {0, 5, 17, m, m + 1, 1L << 40, Long.MAX_VALUE}
                    : new long[] {5, m, m + 1, Long.MAX_VALUE}) {
                l.add(SpaceSpec.external(m, x, 6, base, Optional.empty(), 0));
            }
            if (m >= 30) {
                l.add(SpaceSpec.external(m, x, 6, 7, Optional.of(30L), 0));
                l.add(SpaceSpec.external(m, x, 6, 3, Optional.of(50L), 11));
            }
            return l;
        }));
        Tally t = compareAligned(specs, alignments(false));
        t.report("external");
        assertThat(t.rejected().get(Verdict.CAPACITY_EXCEEDED)).isPositive();
        assertThat(t.rejected().get(Verdict.NOT_ENCODABLE)).isPositive();
        assertThat(t.accepted).isPositive();
    }

    @Test
    void exactRequestsAgreeWithTheModel() {
        long[] ms = LongStream.rangeClosed(0, MAX_M).filter(m -> HEAVY || m % 3 == 0 || m == 29).toArray();
        List<SpaceSpec> specs = bothEnds(ms, (m, x) -> List.of(
                SpaceSpec.logical(m, x, 10),
                SpaceSpec.local(m, x, 10, 55, 0),
                SpaceSpec.local(m, x, 4, 40, 9),
                SpaceSpec.external(m, x, 16, 9, Optional.empty(), 0),
                SpaceSpec.external(m, x, 16, m + 1, Optional.of(64L), 0)));
        Tally t = new Tally();
        for (SpaceSpec spec : specs) {
            Space space = spec.toSpace("s");
            Limits limits = spec.limits();
            for (int r = 0; r <= MAX_REQUESTED; r++) {
                for (int c = 0; c <= MAX_CANDIDATE; c++) {
                    Verdict v = ContractModel.place(limits, SMALL[c], SMALL[r]);
                    compareOne(t, spec, space, limits, v, c, r, 1, 1, SMALL[c], SMALL[r], Admission.Mode.EXACT);
                }
            }
        }
        t.report("exact (fixed regions)");
        assertThat(t.accepted).isPositive();
        assertThat(t.rejected().get(Verdict.CAPACITY_EXCEEDED)).isPositive();
    }

    /**
     * Compares every (alignment, requested, candidate) for every space, hoisting the model's
     * loop-invariant parts; one task per alignment, on every core.
     */
    private static Tally compareAligned(List<SpaceSpec> specs, int[] alignments) {
        Map<Long, List<SpaceSpec>> byAlignment = new LinkedHashMap<>();
        for (SpaceSpec s : specs) {
            byAlignment.computeIfAbsent(s.spaceAlignment(), k -> new ArrayList<>()).add(s);
        }
        Tally total = new Tally();
        for (Map.Entry<Long, List<SpaceSpec>> group : byAlignment.entrySet()) {
            List<SpaceSpec> g = group.getValue();
            int n = g.size();
            Space[] spaces = new Space[n];
            Limits[] limits = new Limits[n];
            for (int k = 0; k < n; k++) {
                spaces[k] = g.get(k).toSpace("s");
                limits[k] = g.get(k).limits();
            }
            BigInteger spaceAlignment = BigInteger.valueOf(group.getKey());
            // The model's verdict depends on the space, the aligned start and the reserved size
            // only; memoize it per space on (start, reserved), both at most 80 rounded up to the
            // largest effective alignment, so that the tight loop allocates nothing for the model.
            int bound = 0;
            for (int a : alignments) {
                bound = Math.max(bound, ContractModel.roundUp(SMALL[MAX_CANDIDATE], ContractModel.lcm(spaceAlignment,
                        SMALL[a])).intValueExact());
            }
            int side = bound + 1;
            byte[][] memo = new byte[n][side * side];
            List<Tally> parts = Arrays.stream(alignments).parallel()
                    .mapToObj(a -> compareAlignment(g, spaces, limits, memo, side, spaceAlignment, a)).toList();
            parts.forEach(total::add);
        }
        return total;
    }

    /** Every (requested, candidate, space) of one alignment; the model memoized in {@code memo}. */
    private static Tally compareAlignment(List<SpaceSpec> g, Space[] spaces, Limits[] limits, byte[][] memo, int side,
                                          BigInteger spaceAlignment, int a) {
        Tally t = new Tally();
        int n = spaces.length;
        BigInteger eff = ContractModel.lcm(spaceAlignment, SMALL[a]);
        long effLong = eff.longValueExact();
        for (int r = 0; r <= MAX_REQUESTED; r++) {
            BigInteger reserved = ContractModel.roundUp(SMALL[r], eff);
            int ri = reserved.intValueExact();
            for (int c = 0; c <= MAX_CANDIDATE; c++) {
                BigInteger start = ContractModel.roundUp(SMALL[c], eff);
                int cell = start.intValueExact() * side + ri;
                for (int k = 0; k < n; k++) {
                    byte m = memo[k][cell];
                    if (m == 0) {
                        m = (byte) (ContractModel.place(limits[k], start, reserved).ordinal() + 1);
                        memo[k][cell] = m; // the same value whichever thread writes it
                    }
                    compareOne(t, g.get(k), spaces[k], limits[k], VERDICTS[m - 1], c, r, a, effLong, start, reserved,
                            Admission.Mode.ALIGNED);
                }
            }
        }
        return t;
    }

    private static void compareOne(Tally t, SpaceSpec spec, Space space, Limits limits, Verdict expected,
                                   long c, long r, long a, long eff, BigInteger start, BigInteger reserved,
                                   Admission.Mode mode) {
        t.cases++;
        Placement p;
        try {
            p = Admission.admit(space, BUFFER, c, r, a, mode);
        } catch (BerthException e) {
            Verdict got = switch (e.category()) {
                case ADDRESS_NOT_ENCODABLE -> Verdict.NOT_ENCODABLE;
                case CAPACITY_EXCEEDED -> Verdict.CAPACITY_EXCEEDED;
                case ARITHMETIC_OVERFLOW -> Verdict.ARITHMETIC_OVERFLOW;
                case INVALID_INPUT -> Verdict.INVALID_INPUT;
                case INSUFFICIENT_DEPLOYMENT_CAPACITY -> null;
            };
            if (got != expected) {
                t.mismatch(spec, c, r, a, "model " + expected + ", admission threw " + e.getMessage());
                return;
            }
            t.byVerdict[got.ordinal()]++;
            if (((c * 31 + r * 7 + a) & 127) != 0) {
                return; // the facts (which build the message) of one rejection in 128
            }
            t.factsChecked++;
            Facts f = e.failure().facts();
            BigInteger limit = got == Verdict.CAPACITY_EXCEEDED ? limits.usable().orElseThrow() : limits.maxAddress();
            boolean factsOk = f.reserved().orElse(-1) == reserved.longValueExact()
                    && f.alignment().orElse(-1) == eff
                    && f.requested().orElse(-1) == r
                    && f.limit().orElse(-1) == limit.longValueExact()
                    && f.limitSource().isPresent()
                    && f.buffer().equals(Optional.of(BUFFER))
                    && (got != Verdict.CAPACITY_EXCEEDED || f.start().orElse(-1) == start.longValueExact());
            if (!factsOk) {
                t.mismatch(spec, c, r, a, "facts " + f + " disagree with start " + start + ", reserved " + reserved
                        + ", alignment " + eff + ", limit " + limit);
            }
            return;
        }
        if (expected != Verdict.ACCEPT) {
            t.mismatch(spec, c, r, a, "model " + expected + ", admission accepted " + p);
            return;
        }
        t.accepted++;
        BigInteger address = limits.base().add(start);
        if (p.offset() != start.longValueExact() || p.reserved() != reserved.longValueExact()
                || p.alignment() != eff || p.requested() != r || !BigInteger.valueOf(p.address()).equals(address)
                || p.end() != start.add(reserved).longValueExact() || p.space() != space) {
            t.mismatch(spec, c, r, a, "accepted " + p + " (address " + p.address() + ", alignment " + p.alignment()
                    + "), model start " + start + ", reserved " + reserved + ", alignment " + eff + ", address "
                    + address);
        }
    }
}
