package dev.berth.bench;

import dev.berth.solve.SpaceProblem;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Seeded synthetic workloads with ONNX-like lifetimes: buffer i is produced at step
 * i (or i / k, with k buffers starting per step) and lives 1-4 steps with probability 0.80, 5-50 steps with 0.15 and 51-1000 steps with
 * 0.05 (uniform within each band); sizes are log-uniform from 64 B to 4 MiB. The same seed
 * gives the same workload.
 */
public final class SyntheticWorkloads {
    public static final long MIN_SIZE = 64;
    public static final long MAX_SIZE = 4L << 20;

    private SyntheticWorkloads() {
    }

    /** {@code n} buffers, alignment 1, no fixed items, limit 2^63-1 (a logical space). */
    public static SpaceProblem onnxLike(int n, long seed) {
        return onnxLike(n, seed, 1);
    }

    /** As {@link #onnxLike(int, long)}, with {@code perStep} buffers produced at each step. */
    public static SpaceProblem onnxLike(int n, long seed, int perStep) {
        if (perStep < 1) {
            throw new IllegalArgumentException("perStep must be at least 1, got " + perStep);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] sizes = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        double lo = Math.log(MIN_SIZE);
        double hi = Math.log(MAX_SIZE);
        for (int i = 0; i < n; i++) {
            double band = rnd.nextDouble();
            int length = band < 0.80 ? 1 + rnd.nextInt(4) : band < 0.95 ? 5 + rnd.nextInt(46) : 51 + rnd.nextInt(950);
            first[i] = i / perStep;
            last[i] = first[i] + length - 1;
            long size = Math.round(Math.exp(lo + (hi - lo) * rnd.nextDouble()));
            sizes[i] = Math.max(MIN_SIZE, Math.min(MAX_SIZE, size));
        }
        return SpaceProblem.of(sizes, first, last, Long.MAX_VALUE);
    }

    /** The most bytes live at one step: the lower bound of any placement (a sweep over steps). */
    public static long maxLive(SpaceProblem p) {
        int n = p.size();
        long[] ev = new long[2 * n];
        for (int i = 0; i < n; i++) {
            // step in the high bits, ends (at last + 1) before starts at the same step, then the item
            ev[2 * i] = ((long) p.first(i) << 33) | (1L << 32) | i;
            ev[2 * i + 1] = (((long) p.last(i) + 1) << 33) | i;
        }
        Arrays.sort(ev);
        long live = 0;
        long best = 0;
        for (long e : ev) {
            int i = (int) (e & 0xFFFF_FFFFL);
            if ((e & (1L << 32)) != 0) {
                live = Math.addExact(live, p.reserved(i));
                best = Math.max(best, live);
            } else {
                live -= p.reserved(i);
            }
        }
        return best;
    }
}
