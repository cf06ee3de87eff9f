package dev.berth.bench;

import dev.berth.artifact.Optimality;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.solve.SpaceProblem;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Workload;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The whole planner with its default options ({@code auto}, which minimises every space within
 * its work budget) on the seeded ONNX-like workloads of {@link SyntheticWorkloads}, in one
 * logical space: that minimisation must not make large plans slow. Prints a Markdown table:
 * median and best wall time of several warm runs, the median CPU time of the planning thread
 * (the exact search's other threads are not counted; it runs only up to 4,096 items), the
 * solver whose placement was kept, the height, the lower bound and what was proved. The time
 * includes everything the planner does (checks, admission of every placement, metrics and the
 * independent validator), not only the solvers of {@link HeuristicScale}.
 *
 * <p>Run: {@code java -Xmx2g -cp berth-bench/target/benchmarks.jar dev.berth.bench.PlannerScale [sizes...]}
 */
public final class PlannerScale {
    private PlannerScale() {
    }

    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[]{1_000, 10_000, 100_000, 1_000_000}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        AddressFormat wide = new AddressFormat("wide", Long.MAX_VALUE, EndConvention.EXCLUSIVE);
        Space global = new Space.Logical("global", wide, 1, 0);
        Target target = new Target("synthetic", Map.of("wide", wide), Map.of("global", global), Optional.empty());
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        StringBuilder sb = new StringBuilder();
        sb.append("| buffers | median time (ms) | best time (ms) | median CPU (ms) | solver | height | lower bound "
                + "| height / lower bound | proof |\n");
        sb.append("| ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |\n");
        for (int n : sizes) {
            SpaceProblem p = SyntheticWorkloads.onnxLike(n, 7);
            List<BufferSpec> buffers = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                buffers.add(new BufferSpec("t" + i, p.reserved(i), global, 1, new Lifetime(p.first(i), p.last(i)),
                        Optional.empty()));
            }
            Workload w = new Workload("synthetic-" + n, buffers, List.of());
            int warm = n >= 1_000_000 ? 1 : 3;
            int runs = n >= 1_000_000 ? 3 : 5;
            for (int k = 0; k < warm; k++) {
                Planner.plan(target, w, Planner.Options.defaults());
            }
            List<Double> ms = new ArrayList<>();
            List<Double> cpu = new ArrayList<>();
            PlanResult last = null;
            for (int r = 0; r < runs; r++) {
                long c0 = mx.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                last = Planner.plan(target, w, Planner.Options.defaults());
                ms.add((System.nanoTime() - t0) / 1e6);
                cpu.add((mx.getCurrentThreadCpuTime() - c0) / 1e6);
            }
            ms.sort(null);
            cpu.sort(null);
            SpaceMetrics m = last.plan().spaces().get("global");
            Optimality o = m.optimality().orElseThrow();
            String row = String.format(Locale.ROOT, "| %,d | %.0f | %.0f | %.0f | %s | %,d | %,d | %.4f | %s |", n,
                    ms.get(ms.size() / 2), ms.get(0), cpu.get(cpu.size() / 2), o.solver().id(), m.highWater(),
                    o.lowerBound(), (double) m.highWater() / o.lowerBound(), o.describe(m.highWater()));
            System.err.println(row);
            sb.append(row).append('\n');
        }
        System.out.print(sb);
    }
}
