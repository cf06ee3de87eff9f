package dev.berth.plan;

import dev.berth.artifact.Assignment;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The assemble phase: the plan artifact from every space's plan. Each space gives its entries
 * and metrics ({@link SpacePlan#assemble}); the artifact lists the workload's buffers, then its
 * fixed regions, each in input order (an item's {@link Item#input} index), then the derived
 * reservations, space by space in the target's order, each space's in the order they were added.
 */
final class PlanAssembler {
    private PlanAssembler() {
    }

    static Plan assemble(Target target, Workload w, SolverChoice solver, SpacePlans spaces, SharedOffsets shared,
                         List<DescriptorEntry> descriptors, Optional<Assignment> assignment) {
        PlannedBuffer[] buffers = new PlannedBuffer[w.buffers().size()];
        PlannedBuffer[] fixed = new PlannedBuffer[w.fixed().size()];
        List<PlannedBuffer> derived = new ArrayList<>();
        Map<String, SpaceMetrics> metrics = new LinkedHashMap<>();
        for (SpacePlan sp : spaces) {
            SpacePlan.Assembled a = sp.assemble(shared);
            metrics.put(sp.space().name(), a.metrics());
            List<Item> items = sp.items();
            for (int i = 0; i < items.size(); i++) {
                Item it = items.get(i);
                switch (it.origin()) {
                    case TENSOR -> put(buffers, it, a.entries().get(i));
                    case FIXED -> put(fixed, it, a.entries().get(i));
                    default -> derived.add(a.entries().get(i));
                }
            }
        }
        List<PlannedBuffer> all = new ArrayList<>(buffers.length + fixed.length + derived.size());
        all.addAll(Arrays.asList(buffers));
        all.addAll(Arrays.asList(fixed));
        all.addAll(derived);
        if (all.contains(null)) {
            throw new IllegalStateException("a buffer or fixed region of " + w.name() + " was gathered in no space");
        }
        return new Plan(target, w.name(), solver, metrics, all, descriptors, assignment, shared.order());
    }

    /** The entry of a workload's buffer or fixed region at its input index, once. */
    private static void put(PlannedBuffer[] slots, Item it, PlannedBuffer entry) {
        if (slots[it.input()] != null) {
            throw new IllegalStateException(it.name() + " (input " + it.input() + ") was gathered twice");
        }
        slots[it.input()] = entry;
    }
}
