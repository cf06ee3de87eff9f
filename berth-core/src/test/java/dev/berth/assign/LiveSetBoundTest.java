package dev.berth.assign;

import dev.berth.artifact.Assignment;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole-buffer per-step relaxation: equal to brute force over every subset on seeded random
 * instances (with occupied items), its choice fits every step, its work limit gives no result
 * rather than a wrong one, and on a workload too large for the exact search it proves the
 * greedy's choice optimal where the fractional bounds cannot.
 */
class LiveSetBoundTest {
    private static final int[] NONE = {};
    private static final long[] NO_BYTES = {};

    static LongStream seeds() {
        return LongStream.range(0, 200);
    }

    /** The most the subsets that fit every step save, by enumeration. */
    static long bruteForce(long limit, int[] of, int[] ol, long[] or, int[] f, int[] l, long[] bytes, long[] gain) {
        int n = f.length;
        long best = 0;
        for (int mask = 0; mask < 1 << n; mask++) {
            boolean[] in = new boolean[n];
            long saved = 0;
            for (int i = 0; i < n; i++) {
                in[i] = (mask >> i & 1) == 1;
                saved += in[i] ? gain[i] : 0;
            }
            if (saved > best && fits(limit, of, ol, or, f, l, bytes, in)) {
                best = saved;
            }
        }
        return best;
    }

    static boolean fits(long limit, int[] of, int[] ol, long[] or, int[] f, int[] l, long[] bytes, boolean[] in) {
        for (int step = 0; step < 40; step++) {
            long held = 0;
            for (int i = 0; i < of.length; i++) {
                held += of[i] <= step && step <= ol[i] ? or[i] : 0;
            }
            long used = 0;
            for (int i = 0; i < f.length; i++) {
                used += in[i] && f[i] <= step && step <= l[i] ? bytes[i] : 0;
            }
            // what holds the space already may pass the limit: then nothing else fits that step
            if (used > Math.max(0, limit - held)) {
                return false;
            }
        }
        return true;
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void itEqualsBruteForceAndItsChoiceFits(long seed) {
        Random rnd = new Random(seed);
        int steps = 3 + rnd.nextInt(10);
        int n = 1 + rnd.nextInt(12);
        long limit = 20 + rnd.nextInt(200);
        int[] f = new int[n];
        int[] l = new int[n];
        long[] bytes = new long[n];
        long[] gain = new long[n];
        for (int i = 0; i < n; i++) {
            f[i] = rnd.nextInt(steps);
            l[i] = f[i] + rnd.nextInt(Math.max(1, steps - f[i]));
            bytes[i] = rnd.nextInt(8) == 0 ? 0 : 1 + rnd.nextInt((int) limit + 20);
            gain[i] = rnd.nextInt(6) == 0 ? 0 : 1 + rnd.nextInt(500);
        }
        int no = rnd.nextInt(3);
        int[] of = new int[no];
        int[] ol = new int[no];
        long[] or = new long[no];
        for (int i = 0; i < no; i++) {
            of[i] = rnd.nextInt(steps);
            ol[i] = of[i] + rnd.nextInt(3);
            or[i] = rnd.nextInt((int) limit);
        }
        LiveSetBound.Result r = LiveSetBound.solve(limit, of, ol, or, f, l, bytes, gain, LiveSetBound.WORK).orElseThrow();
        assertThat(r.savings()).as("seed %d", seed).isEqualTo(bruteForce(limit, of, ol, or, f, l, bytes, gain));
        long chosen = 0;
        for (int i = 0; i < n; i++) {
            chosen += r.chosen()[i] ? gain[i] : 0;
        }
        assertThat(chosen).isEqualTo(r.savings());
        assertThat(fits(limit, of, ol, or, f, l, bytes, r.chosen())).isTrue();
    }

    /**
     * Three buffers of 100 bytes where one fits at a time (room 150, all live at step 3): 300, as
     * worked out in {@link SavingsBoundTest}, where the flow says 400.
     */
    @Test
    void onlyWholeBuffersCount() {
        int[] first = {0, 2, 3};
        int[] last = {5, 3, 4};
        long[] bytes = {100, 100, 100};
        long[] gain = {300, 200, 200};
        assertThat(LiveSetBound.solve(150, NONE, NONE, NO_BYTES, first, last, bytes, gain, LiveSetBound.WORK)
                .orElseThrow().savings()).isEqualTo(300);
        assertThat(SavingsBound.savings(150, NONE, NONE, NO_BYTES, first, last, bytes, new long[]{3, 2, 2}))
                .isEqualTo(400);
    }

    @Test
    void pastItsWorkItGivesNoResult() {
        // 16 buffers of 10 bytes all live at step 0 with room for 8 of them: many live sets
        int n = 16;
        int[] first = new int[n];
        int[] last = new int[n];
        long[] bytes = new long[n];
        long[] gain = new long[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = 10;
            gain[i] = 1 + i;
        }
        assertThat(LiveSetBound.solve(80, NONE, NONE, NO_BYTES, first, last, bytes, gain, 1000)).isEmpty();
        LiveSetBound.Result r = LiveSetBound.solve(80, NONE, NONE, NO_BYTES, first, last, bytes, gain, 10_000_000)
                .orElseThrow();
        assertThat(r.savings()).isEqualTo(16 + 15 + 14 + 13 + 12 + 11 + 10 + 9);
    }

    @Test
    void buffersThatFitBesideEverythingAreTakenWithoutBranching() {
        // 40 buffers of 1 byte all live at once in 100 bytes: one state, not 2^40
        int n = 40;
        int[] first = new int[n];
        int[] last = new int[n];
        long[] bytes = new long[n];
        long[] gain = new long[n];
        Arrays.fill(bytes, 1);
        Arrays.fill(gain, 2);
        LiveSetBound.Result r = LiveSetBound.solve(100, NONE, NONE, NO_BYTES, first, last, bytes, gain, 100).orElseThrow();
        assertThat(r.savings()).isEqualTo(80);
        assertThat(r.chosen()).containsOnly(true);
    }

    /**
     * A chain of 40 buffers of 60 bytes, each live with the next (two never fit the 100-byte sram
     * together), their accesses seeded: too many for the exact search, and the fractional bounds
     * let half of each pair in. The whole-buffer relaxation is the heaviest set of buffers no two
     * of them neighbours; the greedy places it for real (one at a time fits), so the cost equals
     * the bound and is proved optimal. The expected cost comes from the path's own recurrence.
     */
    /**
     * Five buffers whose bytes fit a 6-byte sram at every step, but not placed largest first at
     * the lowest free offset (found by search): c [1,2] and d [5,7] take 0-3, b [4,6] 4-5, e [3,4]
     * 0-1, and a [2,4] finds no free byte. Every assignment the placement rule holds leaves one
     * buffer out; the skyline places the relaxation's choice (all five), so the cost is the bound,
     * 0, every buffer is in sram, and the plan built on it passes the validator.
     */
    @Test
    void theRelaxationsChoiceIsPlacedWhereThePlacementRuleFragments() {
        Target t = Target.builder("t")
                .space(Space.logical("global", AssignerTest.WIDE).accessCost(1).build())
                .space(Space.local("sram", AssignerTest.NARROW).capacity(6).build()).build();
        Space global = t.spaces().get("global");
        Space sram = t.spaces().get("sram");
        Workload w = Workload.builder("frag")
                .buffer(BufferSpec.named("a").size(1).live(2, 4).in(sram).orIn(global).build())
                .buffer(BufferSpec.named("b").size(2).live(4, 6).in(sram).orIn(global).build())
                .buffer(BufferSpec.named("c").size(4).live(1, 2).in(sram).orIn(global).build())
                .buffer(BufferSpec.named("d").size(4).live(5, 7).in(sram).orIn(global).build())
                .buffer(BufferSpec.named("e").size(2).live(3, 4).in(sram).orIn(global).build()).build();
        Space[] allInSram = {sram, sram, sram, sram, sram};
        assertThat(AssignerTest.fits(t, w, allInSram)).isFalse();
        Assigner.Result r = Assigner.assign(t, w, new Work(1_000_000, 200_000, AssignerTest.SEARCH_UP_TO));
        Assignment a = r.assignment();
        assertThat(a.cost()).isZero();
        assertThat(a.proof()).isEqualTo(Assignment.Proof.LOWER_BOUND);
        assertThat(r.workload().buffers()).allSatisfy(b -> assertThat(b.space()).isEqualTo(sram));
        assertThat(AssignerTest.placedFits(t, w, r)).isTrue();
        PlanResult plan = Planner.plan(t, w, Planner.Options.defaults());
        assertThat(PlanValidator.validate(plan.plan()).valid()).isTrue();
        assertThat(plan.plan().buffersIn(sram)).hasSize(5);
        assertThat(plan.plan().metrics(sram).highWater()).isLessThanOrEqualTo(6);
    }

    @Test
    void aChainTooLongForTheSearchIsProvedOptimalByWholeBuffers() {
        Target t = Target.builder("t")
                .space(Space.logical("global", AssignerTest.WIDE).accessCost(1).build())
                .space(Space.local("sram", AssignerTest.NARROW).capacity(100).build()).build();
        Space global = t.spaces().get("global");
        Space sram = t.spaces().get("sram");
        Random rnd = new Random(16);
        int n = 40;
        long[] acc = new long[n];
        Workload.Builder w = Workload.builder("chain");
        for (int i = 0; i < n; i++) {
            acc[i] = 1 + rnd.nextInt(9);
            w.buffer(BufferSpec.named("c" + i).size(60).live(i, i + 1).accesses(acc[i]).in(sram).orIn(global).build());
        }
        // the heaviest independent set on a path: take i or not
        long take = 0;
        long skip = 0;
        long total = 0;
        for (int i = 0; i < n; i++) {
            long t2 = skip + acc[i] * 60;
            skip = Math.max(skip, take);
            take = t2;
            total += acc[i] * 60;
        }
        long expected = total - Math.max(take, skip);
        Assigner.Result r = Assigner.assign(t, w.build(), new Work(1_000_000, 200_000, AssignerTest.SEARCH_UP_TO));
        Assignment a = r.assignment();
        assertThat(n).isGreaterThan(AssignerTest.SEARCH_UP_TO);
        assertThat(a.cost()).isEqualTo(expected);
        assertThat(a.lowerBound()).isEqualTo(expected);
        assertThat(a.proof()).isEqualTo(Assignment.Proof.LOWER_BOUND);
        // the flow relaxation alone stays below: it proves nothing here
        Model m = new Model(t, w.build());
        assertThat(Bounds.rest(m, 0, new Packing(m))).isLessThan(expected);
        Optional<Bounds.Whole> whole = Bounds.whole(m).get(0);
        assertThat(whole.orElseThrow().savings()).isEqualTo(total - expected);
    }
}
