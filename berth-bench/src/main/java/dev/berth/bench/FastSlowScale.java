package dev.berth.bench;

import dev.berth.artifact.Assignment;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.solve.SpaceProblem;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;

import java.util.Locale;
import java.util.Random;

/**
 * The assignment phase at scale: the seeded ONNX-like synthetic workloads of
 * {@link SyntheticWorkloads}, every buffer a candidate for a local sram (1/4 of the peak live)
 * before a logical global, 1 to 8 accesses; planned by {@code Planner.plan} with its defaults,
 * time per plan after one warm-up. Usage: {@code java -cp benchmarks.jar dev.berth.bench.FastSlowScale}.
 */
public final class FastSlowScale {
    private FastSlowScale() {
    }

    public static void main(String[] args) {
        System.out.printf("%8s %14s %14s %14s %14s %-8s %9s%n", "buffers", "berth", "first-fit", "fastest-bank",
                "lower bound", "proof", "time (s)");
        for (int n : new int[]{1_000, 10_000}) {
            SpaceProblem p = SyntheticWorkloads.onnxLike(n, 42);
            long cap = SyntheticWorkloads.maxLive(p) / 4;
            AddressFormat f = AddressFormat.bits("a48", 48);
            Space global = Space.logical("global", f).build();
            Space sram = Space.local("sram", f).capacity(cap).build();
            Target t = Target.builder("scale").space(global).space(sram).build();
            Random rnd = new Random(n);
            Workload.Builder w = Workload.builder("synthetic-" + n);
            for (int i = 0; i < p.size(); i++) {
                w.buffer(BufferSpec.named("b" + i).size(p.reserved(i)).in(sram).orIn(global)
                        .accesses(1 + rnd.nextInt(8)).live(p.first(i), p.last(i)).build());
            }
            Workload wl = w.build();
            Planner.plan(t, wl, Planner.Options.defaults().withTimeLimit(600));
            long t0 = System.nanoTime();
            PlanResult r = Planner.plan(t, wl, Planner.Options.defaults().withTimeLimit(600));
            double s = (System.nanoTime() - t0) / 1e9;
            Assignment a = r.assignment().orElseThrow();
            System.out.printf(Locale.ROOT, "%,8d %,14d %14s %14s %,14d %-8s %9.2f%n", n, a.cost(),
                    a.baseline("first-fit").isPresent() ? String.format("%,d", a.baseline("first-fit").getAsLong()) : "-",
                    a.baseline("fastest-bank-first").isPresent()
                            ? String.format("%,d", a.baseline("fastest-bank-first").getAsLong()) : "-",
                    a.lowerBound(), a.proof().id(), s);
        }
    }
}
