package dev.berth.plan;

import dev.berth.admit.Admission;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Plan;
import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.solve.Budget;
import dev.berth.solve.Progress;
import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.workload.Workload;
import dev.berth.assign.WorkloadCheck;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Workload + target to a validated plan, in phases, each a class or a method of a few lines:
 * <ol>
 * <li><b>check</b> the workload against the target ({@link WorkloadCheck});</li>
 * <li><b>assign</b> a space to every buffer with candidate spaces ({@link Assigned}, by the
 * assignment phase of {@code dev.berth.assign});</li>
 * <li><b>gather</b> each space's items and their reserved sizes, host arithmetic for every item
 * before any search ({@link SpacePlans#gather}; one {@link SpacePlan} per space from here on);</li>
 * <li><b>search</b> each space's placement ({@link SpaceSearch});</li>
 * <li><b>admit</b> every placement through the one admission check, {@link Admission}
 * ({@link SpaceAdmission}, with the {@link Diagnosis} of a space that does not fit);</li>
 * <li><b>tile</b> the tiled buffers through their local spaces ({@link Tiling});</li>
 * <li><b>generate</b> the descriptor table and the instruction stream ({@link GenerationAllocator});</li>
 * <li><b>assemble</b> the plan artifact, its entries in the artifact's order and each space's
 * metrics and proof ({@link PlanAssembler});</li>
 * <li><b>validate</b> the whole plan with the independent {@link PlanValidator}.</li>
 * </ol>
 * A failure anywhere is a typed {@link BerthException} chosen by the contract's precedence
 * (input, arithmetic, format, capacity).
 */
public final class Planner {

    /**
     * Planning options: the solver; the effort (the work budget of the minimisation); the time
     * limit, a safety net over the whole plan (a search it stops makes the plan depend on the
     * machine, and the plan says so); the exact search's threads (0: one per processor; the plan
     * does not depend on them); {@code progress}, which hears from searches as they poll
     * their budget and from minimisations as their brackets narrow; and {@code searchNodes},
     * the exact search's work per space in search nodes when given ({@link #withSearchNodes}),
     * in place of the effort's own rule (docs/design.md).
     */
    public record Options(SolverChoice solver, Effort effort, double timeLimitSeconds, int threads,
                          Progress progress, OptionalLong searchNodes) {
        public Options(SolverChoice solver, Effort effort, double timeLimitSeconds, int threads,
                       Progress progress) {
            this(solver, effort, timeLimitSeconds, threads, progress, OptionalLong.empty());
        }

        public Options(SolverChoice solver, double timeLimitSeconds) {
            this(solver, Effort.DEFAULT, timeLimitSeconds, 0, Progress.NONE);
        }

        public Options(SolverChoice solver, double timeLimitSeconds, Progress progress) {
            this(solver, Effort.DEFAULT, timeLimitSeconds, 0, progress);
        }

        public Options {
            Objects.requireNonNull(solver, "solver");
            Objects.requireNonNull(effort, "effort");
            if (!(timeLimitSeconds > 0) || Double.isInfinite(timeLimitSeconds)) {
                throw Require.invalid("timeLimitSeconds", Double.toString(timeLimitSeconds),
                        "must be a positive, finite number of seconds, got " + timeLimitSeconds);
            }
            Objects.requireNonNull(progress, "progress (use Progress.NONE)");
            if (threads < 0) {
                throw Require.invalid("threads", Integer.toString(threads), "must be 0 (one per "
                        + "processor) or more, got " + threads);
            }
            Objects.requireNonNull(searchNodes, "searchNodes (use OptionalLong.empty())");
            if (searchNodes.isPresent() && searchNodes.getAsLong() < 1) {
                throw Require.invalid("searchNodes", Long.toString(searchNodes.getAsLong()),
                        "must be at least 1 search node, got " + searchNodes.getAsLong());
            }
            // a heuristic places once: it runs no exact search whose nodes could be counted
            if (!solver.searches() && searchNodes.isPresent()) {
                throw BerthException.invalid("searchNodes", Long.toString(searchNodes.getAsLong()), "searchNodes "
                        + "sets the exact search's work: it needs the solver auto or exact, not the heuristic " + solver);
            }
        }

        /** {@code auto}, the default effort, 10 s, one search thread per processor, no progress. */
        public static Options defaults() {
            return new Options(SolverChoice.AUTO, 10);
        }

        public Options withSolver(SolverChoice s) {
            return new Options(s, effort, timeLimitSeconds, threads, progress, searchNodes);
        }

        public Options withEffort(Effort e) {
            return new Options(solver, e, timeLimitSeconds, threads, progress, searchNodes);
        }

        public Options withTimeLimit(double seconds) {
            return new Options(solver, effort, seconds, threads, progress, searchNodes);
        }

        public Options withThreads(int n) {
            return new Options(solver, effort, timeLimitSeconds, n, progress, searchNodes);
        }

        public Options withProgress(Progress p) {
            return new Options(solver, effort, timeLimitSeconds, threads, p, searchNodes);
        }

        /**
         * These options with the exact search's work per space fixed at {@code nodes} search
         * nodes (at least 1), whatever the space's size: the narrowing of the bracket, and the
         * search for a first placement within a finite space's limit when the heuristics' does
         * not fit, each get that many. A node count, unlike a time limit, gives the same plan on
         * every machine; a large one may need a larger {@link #timeLimitSeconds}. A heuristic solver
         * runs no exact search, so options with one and a node count are refused as invalid-input,
         * by whichever call makes the pair. (The effort is not refused with one: it also sets the
         * work of the assignment phase, for buffers with candidate spaces.) It changes nothing where no exact
         * search runs: a space the heuristics already place at its lower bound, a space larger than
         * {@code auto} searches.
         */
        public Options withSearchNodes(long nodes) {
            return new Options(solver, effort, timeLimitSeconds, threads, progress, OptionalLong.of(nodes));
        }
    }

    private Planner() {
    }

    /**
     * Plans {@code workload} on {@code target}, one line a phase (the class comment says what each
     * does). A null argument is a NullPointerException naming it.
     */
    public static PlanResult plan(Target target, Workload workload, Options options) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(options, "options");
        WorkloadCheck.check(target, workload);
        Assigned assigned = Assigned.assign(target, workload, options.effort());
        Workload w = assigned.workload();
        Budget budget = Budget.seconds(options.timeLimitSeconds(), options.progress());
        SpacePlans spaces = SpacePlans.gather(target, w);
        SharedOffsets shared = SharedOffsets.of(w);
        search(spaces, shared, options, budget, assigned);
        SpaceAdmission.admit(spaces, budget);
        List<DescriptorEntry> descriptors = Tiling.tile(target, w, spaces);
        GenerationAllocator.generate(target, w, descriptors.size(), spaces);
        Plan plan = PlanAssembler.assemble(target, w, options.solver(), spaces, shared, descriptors, assigned.assignment());
        return validate(plan, spaces);
    }

    /**
     * The search phase: each space's placement, by {@link SpaceSearch}, under its own scope of the
     * plan's budget; each chain of shared pairs searched as one item ({@link SharedOffsets}).
     */
    private static void search(SpacePlans spaces, SharedOffsets shared, Options options, Budget budget,
                               Assigned assigned) {
        for (SpacePlan sp : spaces) {
            sp.searched(shared.solve(sp.problem(), q -> SpaceSearch.solve(q, options, budget.scope(),
                    q == sp.problem() ? assigned.seed(sp) : Optional.empty())));
        }
    }

    /** The validate phase: the independent validator's verdict on the whole plan ({@link PlanResult#validated}); a rejection is a bug. */
    private static PlanResult validate(Plan plan, SpacePlans spaces) {
        Map<String, SolverKind> solvers = new LinkedHashMap<>();
        for (SpacePlan sp : spaces) {
            solvers.put(sp.space().name(), sp.outcome().solver());
        }
        return PlanResult.validated(plan, solvers);
    }

    /**
     * The bytes Berth reserves for {@code requested} bytes at {@code alignment} in {@code space}:
     * rounded up to a multiple of {@code lcm(space alignment, alignment)}, as every placement
     * is. {@code arithmetic-overflow} naming {@code buffer} if that passes 2^63-1,
     * {@code invalid-input} for a negative size or a non-positive alignment.
     */
    public static long reservedSize(Space space, String buffer, long requested, long alignment) {
        Objects.requireNonNull(space, "space");
        Require.name(buffer, "buffer");
        Require.nonNegative(requested, buffer + ".size");
        Require.positive(alignment, buffer + ".alignment");
        return Admission.reservedSize(space, buffer, requested,
                Admission.effectiveAlignment(space, buffer, requested, alignment));
    }
}
