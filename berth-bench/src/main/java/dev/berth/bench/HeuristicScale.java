package dev.berth.bench;

import dev.berth.plan.Solvers;
import dev.berth.solve.Budget;
import dev.berth.solve.SolverKind;
import dev.berth.solve.Outcome;
import dev.berth.solve.Solver;
import dev.berth.solve.SpaceProblem;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The heuristics at scale: greedy-by-size and best-fit on seeded ONNX-like
 * synthetic workloads of 10^4, 10^5 and 10^6 buffers. Prints a Markdown table: the median and
 * best wall time of several warm runs (after warm-up runs), the height, the max-live lower
 * bound, and height / lower bound. Every placement is checked for overlaps before it counts.
 *
 * <p>Run: {@code java -Xmx1g -cp berth-bench/target/benchmarks.jar dev.berth.bench.HeuristicScale [sizes...]}
 */
public final class HeuristicScale {
    private HeuristicScale() {
    }

    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[]{10_000, 100_000, 1_000_000}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        long seed = 7;
        StringBuilder sb = new StringBuilder();
        sb.append("| buffers | solver | median time (ms) | best time (ms) | median CPU (ms) | height | lower bound "
                + "| height / lower bound |\n");
        sb.append("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int n : sizes) {
            SpaceProblem p = SyntheticWorkloads.onnxLike(n, seed);
            long lb = SyntheticWorkloads.maxLive(p);
            for (Solver s : List.of(Solvers.of(SolverKind.GREEDY, 1), Solvers.of(SolverKind.BEST_FIT, 1))) {
                int warm = n >= 1_000_000 ? 2 : 5;
                int runs = n >= 1_000_000 ? 5 : 11;
                for (int w = 0; w < warm; w++) {
                    s.solve(p, Budget.unlimited());
                }
                List<Double> ms = new ArrayList<>();
                List<Double> cpu = new ArrayList<>();
                Outcome.Solved last = null;
                for (int r = 0; r < runs; r++) {
                    long c0 = mx.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    last = (Outcome.Solved) s.solve(p, Budget.unlimited());
                    ms.add((System.nanoTime() - t0) / 1e6);
                    cpu.add((mx.getCurrentThreadCpuTime() - c0) / 1e6);
                }
                Overlaps.check(p, last.offsets());
                ms.sort(null);
                cpu.sort(null);
                String row = String.format(Locale.ROOT, "| %,d | %s | %.1f | %.1f | %.1f | %,d | %,d | %.4f |", n, s.kind().id(),
                        ms.get(ms.size() / 2), ms.get(0), cpu.get(cpu.size() / 2), last.height(), lb,
                        (double) last.height() / lb);
                System.err.println(row);
                sb.append(row).append('\n');
            }
        }
        System.out.print(sb);
    }
}
