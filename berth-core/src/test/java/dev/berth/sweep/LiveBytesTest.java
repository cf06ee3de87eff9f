package dev.berth.sweep;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.solve.SpaceProblem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The live-bytes sweep against a reference that sums, in exact integers, the bytes of every
 * item live at each step where an item starts (the first step with the most bytes is one of
 * them); both ways of sweeping (counting dense steps, sorting sparse ones) give the same peak
 * and the same step, and an overflow of a step's sum is {@code arithmetic-overflow} exactly
 * when the reference's sum passes 2^63-1.
 */
class LiveBytesTest {
    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** Random items: dense or sparse steps, many ties of starts and ends, some empty items. */
    private record Items(int[] first, int[] last, long[] reserved) {
        static Items random(SplittableRandom rnd, int n, long maxBytes) {
            int span = 1 + rnd.nextInt(2 * n + 1);
            int spread = rnd.nextBoolean() ? 1 : 1 + rnd.nextInt(1_000_000);
            int[] f = new int[n];
            int[] l = new int[n];
            long[] r = new long[n];
            for (int i = 0; i < n; i++) {
                f[i] = rnd.nextInt(span) * spread;
                l[i] = Math.min(Integer.MAX_VALUE - 1, f[i] + rnd.nextInt(1 + rnd.nextInt(span)) * spread);
                r[i] = rnd.nextInt(8) == 0 ? 0 : 1 + rnd.nextLong(maxBytes);
            }
            return new Items(f, l, r);
        }
    }

    /** The reference: the largest exact sum over the starting steps, and the first of them that has it. */
    private static BigInteger[] reference(Items it, long limit) {
        TreeSet<Integer> starts = new TreeSet<>();
        for (int s : it.first()) {
            starts.add(s);
        }
        BigInteger best = BigInteger.ZERO;
        long at = -1;
        for (int s : starts) {
            BigInteger live = BigInteger.ZERO;
            for (int i = 0; i < it.first().length; i++) {
                if (it.first()[i] <= s && s <= it.last()[i]) {
                    live = live.add(BigInteger.valueOf(it.reserved()[i]));
                }
            }
            if (live.compareTo(best) > 0) {
                best = live;
                at = s;
                if (best.compareTo(BigInteger.valueOf(limit)) > 0) {
                    break;
                }
            }
        }
        return new BigInteger[]{best, BigInteger.valueOf(at)};
    }

    private static void agrees(Items it, long limit, LiveBytes.Peak peak) {
        BigInteger[] ref = reference(it, limit);
        assertThat(BigInteger.valueOf(peak.bytes())).isEqualTo(ref[0]);
        assertThat(BigInteger.valueOf(peak.step())).isEqualTo(ref[1]);
    }

    private static int lo(Items it) {
        int lo = Integer.MAX_VALUE;
        for (int f : it.first()) {
            lo = Math.min(lo, f);
        }
        return lo;
    }

    private static int span(Items it) {
        int hi = 0;
        for (int l : it.last()) {
            hi = Math.max(hi, l);
        }
        return hi - lo(it) + 1;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void thePeakAndItsFirstStepAreTheReferences(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 200; round++) {
            Items it = Items.random(rnd, 1 + rnd.nextInt(60), 1L << (1 + rnd.nextInt(40)));
            agrees(it, Long.MAX_VALUE, LiveBytes.peak(it.first(), it.last(), it.reserved()));
            agrees(it, Long.MAX_VALUE, LiveBytes.sorted(it.first(), it.last(), it.reserved(), Long.MAX_VALUE));
            if (span(it) <= 1 << 16) {
                agrees(it, Long.MAX_VALUE, LiveBytes.counted(it.first(), it.last(), it.reserved(), Long.MAX_VALUE,
                        lo(it), span(it)));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {11, 12, 13, 14})
    void firstAboveStopsAtTheFirstStepPastTheLimit(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 200; round++) {
            Items it = Items.random(rnd, 1 + rnd.nextInt(40), 100);
            long limit = rnd.nextInt(1500);
            LiveBytes.Peak at = LiveBytes.firstAbove(it.first(), it.last(), it.reserved(), limit);
            agrees(it, limit, at);
            agrees(it, limit, LiveBytes.sorted(it.first(), it.last(), it.reserved(), limit));
            if (span(it) <= 1 << 16) {
                agrees(it, limit, LiveBytes.counted(it.first(), it.last(), it.reserved(), limit, lo(it), span(it)));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {21, 22, 23, 24})
    void aStepPastTwoToTheSixtyThreeIsArithmeticOverflowInBothSweeps(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int overflows = 0;
        for (int round = 0; round < 200; round++) {
            Items it = Items.random(rnd, 1 + rnd.nextInt(12), Long.MAX_VALUE / (2 + rnd.nextInt(6)));
            boolean past = reference(it, Long.MAX_VALUE)[0].compareTo(MAX) > 0;
            if (past) {
                overflows++;
                assertThatThrownBy(() -> LiveBytes.peak(it.first(), it.last(), it.reserved()))
                        .isInstanceOfSatisfying(BerthException.class,
                                e -> assertThat(e.category()).isEqualTo(Category.ARITHMETIC_OVERFLOW));
                assertThatThrownBy(() -> LiveBytes.sorted(it.first(), it.last(), it.reserved(), Long.MAX_VALUE))
                        .isInstanceOf(BerthException.class);
                if (span(it) <= 1 << 16) {
                    assertThatThrownBy(() -> LiveBytes.counted(it.first(), it.last(), it.reserved(), Long.MAX_VALUE,
                            lo(it), span(it))).isInstanceOf(BerthException.class);
                }
            } else {
                agrees(it, Long.MAX_VALUE, LiveBytes.peak(it.first(), it.last(), it.reserved()));
                agrees(it, Long.MAX_VALUE, LiveBytes.sorted(it.first(), it.last(), it.reserved(), Long.MAX_VALUE));
            }
        }
        assertThat(overflows).as("rounds whose sums pass 2^63-1").isGreaterThan(5);
    }

    @Test
    void anItemEndingWhereAnotherStartsIsTakenAwayFirst() {
        // two halves of 2^63-1 in turn: their sum is never live, so nothing overflows
        long half = Long.MAX_VALUE / 2 + 1;
        int[] first = {0, 5};
        int[] last = {4, 9};
        long[] bytes = {half, half};
        assertThat(LiveBytes.peak(first, last, bytes)).isEqualTo(new LiveBytes.Peak(half, 0));
        assertThat(LiveBytes.sorted(first, last, bytes, Long.MAX_VALUE)).isEqualTo(new LiveBytes.Peak(half, 0));
        // the same at the last step there is: 2^31 - 1
        int end = Integer.MAX_VALUE;
        assertThat(LiveBytes.peak(new int[]{0, end}, new int[]{end - 1, end}, new long[]{half, half + 1}))
                .isEqualTo(new LiveBytes.Peak(half + 1, end));
        assertThatThrownBy(() -> LiveBytes.peak(new int[]{0, end}, new int[]{end, end}, new long[]{half, half}))
                .isInstanceOf(BerthException.class).hasMessageContaining("step " + end);
    }

    @Test
    void noLiveByteIsStepMinusOne() {
        assertThat(LiveBytes.peak(new int[0], new int[0], new long[0])).isEqualTo(LiveBytes.Peak.NONE);
        assertThat(LiveBytes.peak(new int[]{3, 7}, new int[]{4, 9}, new long[]{0, 0})).isEqualTo(LiveBytes.Peak.NONE);
        assertThat(LiveBytes.Peak.NONE.step()).isEqualTo(-1);
        for (Runnable bad : new Runnable[]{() -> new LiveBytes.Peak(0, 3), () -> new LiveBytes.Peak(5, -1),
                () -> new LiveBytes.Peak(5, -2)}) {
            assertThatThrownBy(bad::run).isInstanceOfSatisfying(BerthException.class, e -> {
                assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                assertThat(e.failure().fields()).containsEntry("path", "step");
            });
        }
        assertThatThrownBy(() -> new LiveBytes.Peak(-1, 0)).isInstanceOfSatisfying(BerthException.class,
                e -> assertThat(e.failure().fields()).containsEntry("path", "bytes"));
    }

    @Test
    void aProblemCountsItsFixedItems() {
        SpaceProblem p = new SpaceProblem(null, new String[]{"a", "fixed", "b"}, new long[]{8, 16, 4}, new long[]{1, 1, 1},
                new int[]{0, 2, 3}, new int[]{2, 3, 3}, new long[]{-1, 100, -1}, Long.MAX_VALUE);
        assertThat(p.peakLive()).isEqualTo(24);
    }
}
