/**
 * Berth's core: a memory and address planner for accelerator compilers. It depends on nothing
 * but the JDK.
 *
 * <p>The API: describe the target ({@link dev.berth.target.Target}, its
 * {@link dev.berth.target.Space}s and {@link dev.berth.target.AddressFormat}s) and the
 * workload ({@link dev.berth.workload.Workload} of {@link dev.berth.workload.BufferSpec}s),
 * plan it with {@link dev.berth.plan.Planner#plan}, and read the validated
 * {@link dev.berth.artifact.Plan}. Every failure is a {@link dev.berth.failure.BerthException}
 * of one {@link dev.berth.failure.Category}. {@link dev.berth.verify.PlanValidator} re-checks
 * any plan independently; {@link dev.berth.deploy.DeployCheck} compares a plan with what a
 * runtime provides; {@link dev.berth.solve} poses one space's placement problem to a solver
 * directly; {@link dev.berth.schedule} chooses an operator order and in-place pairs for an
 * operator graph.
 *
 * <p>Not exported: the admission check and the allocator ({@code dev.berth.admit},
 * {@code dev.berth.alloc}), which every plan passes through, the choice of spaces
 * ({@code dev.berth.assign}) and the solvers' insides ({@code dev.berth.solve.heuristic},
 * {@code .skyline}, {@code .exact}, {@code .thread}). Exported only to Berth's own readers and
 * command line, which measure and print what the planner does the way it does:
 * {@code dev.berth.sweep} (live bytes per step, {@code LiveBytes}), {@code dev.berth.measure}
 * (what a space's reservations occupy, {@code SpaceUse}, and the one assembler of its metrics and
 * what is proved about them, {@code SpaceAssembler}) and {@code dev.berth.text} (control
 * characters made visible, {@code Visible}).
 */
// "module": the qualified exports name modules that this build compiles after this one
@SuppressWarnings("module")
module dev.berth.core {
    exports dev.berth.arith;
    exports dev.berth.failure;
    exports dev.berth.target;
    exports dev.berth.workload;
    exports dev.berth.plan;
    exports dev.berth.solve;
    exports dev.berth.artifact;
    exports dev.berth.verify;
    exports dev.berth.deploy;
    exports dev.berth.schedule;

    exports dev.berth.sweep to dev.berth.io, dev.berth.cli;
    exports dev.berth.measure to dev.berth.io, dev.berth.cli;
    exports dev.berth.text to dev.berth.cli;
}
