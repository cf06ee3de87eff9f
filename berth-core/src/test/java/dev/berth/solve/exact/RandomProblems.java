package dev.berth.solve.exact;

import dev.berth.solve.SpaceProblem;

import java.util.SplittableRandom;

/** Seeded random placement problems for tests: mixed alignments, zero sizes, fixed items. */
final class RandomProblems {
    private static final long[] ALIGNMENTS = {1, 1, 1, 1, 2, 3, 4, 5, 6};

    private RandomProblems() {
    }

    /** Up to 6 items over 5 steps, sizes up to 6, a limit near the peak of live bytes. */
    static SpaceProblem small(SplittableRandom rnd) {
        return random(rnd, 1 + rnd.nextInt(6), 5, 7, 0.15);
    }

    /** 7 or 8 items over 6 steps, sizes up to 4: more interaction, still brute-forceable. */
    static SpaceProblem medium(SplittableRandom rnd) {
        return random(rnd, 7 + rnd.nextInt(2), 6, 5, 0.08);
    }

    /** Up to 8 items where many are exact copies of another (same size, alignment, steps). */
    static SpaceProblem twins(SplittableRandom rnd) {
        SpaceProblem base = random(rnd, 3 + rnd.nextInt(3), 5, 4, 0.1);
        int n = base.size();
        int extra = 1 + rnd.nextInt(3);
        String[] names = new String[n + extra];
        long[] reserved = new long[n + extra];
        long[] align = new long[n + extra];
        int[] first = new int[n + extra];
        int[] last = new int[n + extra];
        long[] fixed = new long[n + extra];
        for (int i = 0; i < n + extra; i++) {
            int from = i < n ? i : rnd.nextInt(n);
            names[i] = "b" + i;
            reserved[i] = base.reserved(from);
            align[i] = base.alignment(from);
            first[i] = base.first(from);
            last[i] = base.last(from);
            fixed[i] = i < n ? base.fixedOffset(from) : -1;
        }
        long limit = base.limit() + rnd.nextInt(6);
        return new SpaceProblem(null, names, reserved, align, first, last, fixed, limit);
    }

    private static SpaceProblem random(SplittableRandom rnd, int n, int steps, int maxSize, double fixedShare) {
        String[] names = new String[n];
        long[] reserved = new long[n];
        long[] align = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        long[] fixed = new long[n];
        for (int i = 0; i < n; i++) {
            names[i] = "b" + i;
            first[i] = rnd.nextInt(steps);
            last[i] = first[i] + rnd.nextInt(steps - first[i]);
            long size = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(maxSize);
            boolean isFixed = rnd.nextDouble() < fixedShare;
            align[i] = isFixed ? 1 : ALIGNMENTS[rnd.nextInt(ALIGNMENTS.length)];
            // the planner rounds sizes up to the alignment; the solver must not rely on it
            reserved[i] = rnd.nextBoolean() ? size : (size + align[i] - 1) / align[i] * align[i];
            fixed[i] = -1;
        }
        long peak = 0;
        for (int t = 0; t < steps; t++) {
            long live = 0;
            for (int i = 0; i < n; i++) {
                if (first[i] <= t && t <= last[i]) {
                    live += reserved[i];
                }
            }
            peak = Math.max(peak, live);
        }
        long limit = Math.max(0, peak - 1 + rnd.nextInt(5));
        for (int i = 0; i < n; i++) {
            if (rnd.nextDouble() < fixedShare) {
                fixed[i] = rnd.nextInt((int) limit + 3);
                align[i] = 1;
            }
        }
        return new SpaceProblem(null, names, reserved, align, first, last, fixed, limit);
    }

    static String describe(SpaceProblem p) {
        StringBuilder sb = new StringBuilder("limit " + p.limit() + ":");
        for (int i = 0; i < p.size(); i++) {
            sb.append(' ').append(p.name(i)).append("(r").append(p.reserved(i)).append(" a").append(p.alignment(i))
                    .append(" [").append(p.first(i)).append(',').append(p.last(i)).append(']');
            if (p.isFixed(i)) {
                sb.append(" @").append(p.fixedOffset(i));
            }
            sb.append(')');
        }
        return sb.toString();
    }
}
