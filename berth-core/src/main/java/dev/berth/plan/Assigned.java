package dev.berth.plan;

import dev.berth.artifact.Assignment;
import dev.berth.assign.Assigner;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The assignment phase's result (contract §5.2): the workload with one space per buffer, and,
 * when some buffer had candidate spaces, what {@link Assigner} chose, proved and placed.
 */
record Assigned(Workload workload, Optional<Assigner.Result> result) {

    /**
     * Runs the assignment, with the effort's work ({@link WorkPolicy#assignment}), when a buffer of the
     * (checked) workload has candidate spaces; else the workload as it is.
     */
    static Assigned assign(Target target, Workload workload, Effort effort) {
        if (workload.buffers().stream().noneMatch(BufferSpec::hasChoice)) {
            return new Assigned(workload, Optional.empty());
        }
        Assigner.Result r = Assigner.assign(target, workload, WorkPolicy.of(effort).assignment());
        return new Assigned(r.workload(), Optional.of(r));
    }

    /** What the planner chose for buffers with candidate spaces, for the artifact. */
    Optional<Assignment> assignment() {
        return result.map(Assigner.Result::assignment);
    }

    /** The assignment's placement of the space's items, in item order, when it placed that space. */
    Optional<long[]> seed(SpacePlan sp) {
        if (result.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Long> at = result.get().placements().get(sp.space().name());
        if (at == null) {
            return Optional.empty();
        }
        List<Item> items = sp.items();
        long[] offsets = new long[items.size()];
        for (int i = 0; i < offsets.length; i++) {
            Long o = at.get(items.get(i).name());
            if (o == null) {
                throw new IllegalStateException("the assignment did not place " + items.get(i).name() + " in space "
                        + sp.space().name());
            }
            offsets[i] = o;
        }
        return Optional.of(offsets);
    }
}
