package dev.berth.cli;

import dev.berth.failure.BerthException;
import dev.berth.plan.PlanFromOffsets;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.plan.SolverChoice;
import dev.berth.solve.Budget;
import dev.berth.solve.SpaceProblem;
import dev.berth.solve.exact.ExactSolver;
import dev.berth.solve.exact.Minimizer;
import dev.berth.target.Space;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * {@code plan --minimize}: the smallest capacity at which a single-space workload (a MiniMalloc
 * CSV) fits, at most the capacity given. Prints the bracket [lower, upper] each time it narrows,
 * then whether the upper end is proved optimal; the plan returned is the best placement found,
 * validated, in the space of the given capacity.
 */
final class Minimization {
    /** The plan of the best placement and the final bracket. */
    record Outcome(PlanResult plan, Minimizer.Result result) {
    }

    private Minimization() {
    }

    static Outcome run(WorkloadSources.Loaded in, double seconds, PrintWriter progress) {
        List<Space> finite = in.target().spaces().values().stream().filter(s -> s.capacity().isPresent()).toList();
        if (in.target().spaces().size() != 1 || finite.size() != 1) {
            throw BerthException.invalid("--minimize", "--minimize applies to a workload with one finite space, such as "
                    + "a MiniMalloc CSV with --capacity");
        }
        Space space = finite.get(0);
        SpaceProblem p = PlanFromOffsets.problem(in.target(), in.workload(), space.name());
        long start = System.nanoTime();
        progress.println("minimize " + space.name() + ": the smallest capacity at most " + p.limit() + " that fits "
                + in.workload().buffers().size() + " buffers");
        Minimizer.Result r = Minimizer.minimize(p, Budget.seconds(seconds), ExactSolver.Settings.defaults(),
                step -> progress.println(String.format(Locale.ROOT, "  %8.2f s  [%d, %d]  %s",
                        (System.nanoTime() - start) / 1e9, step.lower(), step.upper(), step.event())));
        progress.flush();
        if (r.offsets().isEmpty()) {
            // nothing fits the given capacity: the planner says why, in the contract's terms
            double left = Math.max(1, seconds - (System.nanoTime() - start) / 1e9);
            Planner.plan(in.target(), in.workload(), new Planner.Options(SolverChoice.EXACT, left));
            throw new IllegalStateException("the planner placed what the minimisation could not");
        }
        PlanResult plan = PlanFromOffsets.plan(in.target(), in.workload(), space.name(), r.offsets().get(), "exact");
        return new Outcome(plan, r);
    }

    /** One line: optimal (proved), or the bracket at the time limit. */
    static String summary(Minimizer.Result r) {
        return r.optimal() ? "minimum capacity " + r.upper() + " (optimal: proved)"
                : "minimum capacity in [" + r.lower() + ", " + r.upper() + "] (not proved within --time-limit; best "
                + "placement " + r.upper() + ")";
    }
}
