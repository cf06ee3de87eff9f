package dev.berth.solve.exact;

import dev.berth.solve.SpaceProblem;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SpaceProblem#lowerBound}, the one lower bound of the planner, the minimisation and the
 * exact search, against a reference written here from its definition (the live bytes summed per
 * step, the largest item, the highest fixed end, in {@link BigInteger}); a multiple of
 * {@link SpaceProblem#granularity} (checked against the gcd taken here), so that no rounding is
 * needed; and never above the brute-force optimum. Seeded problems with zero sizes, fixed items
 * and mixed alignments ({@link RandomProblems}), and the same scaled by a factor, whose
 * granularity is then above 1.
 */
class LowerBoundTest {
    private static final int PROBLEMS = 200;

    static Stream<Function<SplittableRandom, SpaceProblem>> families() {
        return Stream.concat(MinimizerBruteForceTest.families(),
                Stream.of(rnd -> scaled(RandomProblems.small(rnd), 2 + rnd.nextInt(3))));
    }

    @TestFactory
    Stream<DynamicTest> theBoundIsItsDefinitionAMultipleOfTheGranularityAndNeverAboveTheOptimum() {
        String[] names = {"small", "medium", "twins", "scaled"};
        int[] k = {0};
        return families().map(family -> DynamicTest.dynamicTest(names[k[0]++], () -> {
            SplittableRandom rnd = new SplittableRandom(20261202 + k[0]);
            int tight = 0;
            int coarse = 0;
            for (int t = 0; t < PROBLEMS; t++) {
                SpaceProblem p = family.apply(rnd);
                String what = "problem " + t + ": " + RandomProblems.describe(p);
                long lb = p.lowerBound();
                assertThat(lb).as(what).isEqualTo(definition(p).longValueExact());
                assertThat(p.granularity()).as(what).isEqualTo(gcd(p));
                assertThat(lb % p.granularity()).as(what).isZero();
                coarse += p.granularity() > 1 ? 1 : 0;
                long opt = BruteForce.optimum(p.withLimit(p.limit() + 40));
                if (opt < 0) {
                    continue; // two fixed items clash: nothing fits at any height
                }
                assertThat(lb).as(what).isLessThanOrEqualTo(opt);
                tight += lb == opt ? 1 : 0;
            }
            assertThat(tight).as("problems whose bound is their optimum").isPositive();
            if (names[k[0] - 1].equals("scaled")) {
                assertThat(coarse).as("scaled problems of granularity above 1").isGreaterThan(PROBLEMS / 2);
            }
        }));
    }

    /** {@code p} with every size, fixed offset, alignment and the limit times {@code f}. */
    private static SpaceProblem scaled(SpaceProblem p, int f) {
        int n = p.size();
        String[] names = new String[n];
        long[] reserved = new long[n];
        long[] align = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        long[] fixed = new long[n];
        for (int i = 0; i < n; i++) {
            names[i] = p.name(i);
            reserved[i] = p.reserved(i) * f;
            align[i] = p.isFixed(i) ? 1 : p.alignment(i) * f;
            first[i] = p.first(i);
            last[i] = p.last(i);
            fixed[i] = p.isFixed(i) ? p.fixedOffset(i) * f : -1;
        }
        return new SpaceProblem(null, names, reserved, align, first, last, fixed, p.limit() * f);
    }

    /** The bound from its definition: per-step sums of the reserved bytes, the largest item, the fixed ends. */
    private static BigInteger definition(SpaceProblem p) {
        int steps = 0;
        for (int i = 0; i < p.size(); i++) {
            steps = Math.max(steps, p.last(i) + 1);
        }
        BigInteger bound = BigInteger.ZERO;
        for (int s = 0; s < steps; s++) {
            BigInteger live = BigInteger.ZERO;
            for (int i = 0; i < p.size(); i++) {
                if (p.first(i) <= s && s <= p.last(i)) {
                    live = live.add(BigInteger.valueOf(p.reserved(i)));
                }
            }
            bound = bound.max(live);
        }
        for (int i = 0; i < p.size(); i++) {
            bound = bound.max(BigInteger.valueOf(p.reserved(i)));
            if (p.isFixed(i)) {
                bound = bound.max(BigInteger.valueOf(p.fixedOffset(i)).add(BigInteger.valueOf(p.reserved(i))));
            }
        }
        return bound;
    }

    /** The gcd of the sizes, fixed offsets and free items' alignments above 1; 1 when all are 0. */
    private static long gcd(SpaceProblem p) {
        BigInteger g = BigInteger.ZERO;
        for (int i = 0; i < p.size(); i++) {
            g = g.gcd(BigInteger.valueOf(p.reserved(i)));
            if (p.isFixed(i)) {
                g = g.gcd(BigInteger.valueOf(p.fixedOffset(i)));
            } else if (p.alignment(i) > 1) {
                g = g.gcd(BigInteger.valueOf(p.alignment(i)));
            }
        }
        return g.signum() == 0 ? 1 : g.longValueExact();
    }
}
