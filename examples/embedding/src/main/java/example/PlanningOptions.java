package example;

import dev.berth.artifact.Plan;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.plan.Effort;
import dev.berth.plan.Planner;
import dev.berth.solve.Progress;
import dev.berth.solve.SolverChoice;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;

/** The planner's options: solver, effort, threads, time limit, search nodes, progress. */
public final class PlanningOptions {
    public static void main(String[] args) {
        Space global = Space.logical("global", AddressFormat.bits("dma32", 32)).alignment(64).build();
        Target target = Target.builder("mine").space(global).build();
        Workload.Builder builder = Workload.builder("stairs");
        for (int i = 0; i < 12; i++) {
            builder.buffer(BufferSpec.named("t" + i).size(1024L * (1 + i % 5)).in(global).live(i / 2, i / 2 + 2 + i % 3).build());
        }
        Workload workload = builder.build();

        Planner.Options options = Planner.Options.defaults()
                .withSolver(SolverChoice.AUTO)   // or EXACT, or the heuristics GREEDY, BEST_FIT, SKYLINE
                .withEffort(Effort.MINIMIZE)     // FIT, DEFAULT or MINIMIZE: the work budget
                .withThreads(1)                  // the exact search's threads; 0 = one per processor
                .withTimeLimit(60)               // seconds: a safety net, never what normally ends a search
                .withProgress(new Progress() {
                    @Override
                    public void searching(double elapsedSeconds, double limitSeconds) {
                        // called very often, on the searching thread: keep it quick
                    }

                    @Override
                    public void bracket(String space, long lower, long upper, String event) {
                        System.err.println(space + ": [" + lower + ", " + upper + "] " + event);
                    }
                });
        Plan plan = Planner.plan(target, workload, options).plan();
        SpaceMetrics m = plan.metrics(global);
        System.out.println("stairs: highWater " + m.highWater() + ", peak live " + m.peakLive() + ", "
                + m.optimality().orElseThrow().describe(m.highWater())
                + (m.optimality().orElseThrow().timeLimited() ? " (cut short by the time limit)" : ""));
    }
}
