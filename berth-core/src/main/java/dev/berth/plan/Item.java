package dev.berth.plan;

import dev.berth.admit.Placement;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;

import java.util.Optional;

/**
 * One reservation to make in a space: a workload buffer, a fixed region or a reservation the
 * planner derives (a tile buffer, a generation-time allocation). {@code fixedOffset} is -1 unless
 * the input placed it; {@code input} is the item's index among the workload's buffers (a
 * {@link Origin#TENSOR}) or fixed regions (a {@link Origin#FIXED}), the artifact's order, and -1
 * for a derived one.
 */
record Item(String name, long requested, long alignment, Lifetime live, Origin origin, Optional<String> of,
            long fixedOffset, int input) {

    /** Fixed region {@code input} of the workload: exact, at the offset the input gave. */
    static Item of(FixedRegion f, int input) {
        return new Item(f.name(), f.size(), 1, f.live(), Origin.FIXED, Optional.empty(), f.offset(), input);
    }

    /** Buffer {@code input} of the workload, for a solver to place. */
    static Item of(BufferSpec b, int input) {
        return new Item(b.name(), b.size(), b.alignment(), b.live(), Origin.TENSOR, Optional.empty(), -1, input);
    }

    /** A reservation the planner derived and admitted as {@code p} after the solver ({@code of}: the tensor a tile serves). */
    static Item derived(Placement p, Lifetime live, Origin origin, Optional<String> of) {
        return new Item(p.buffer(), p.requested(), p.alignment(), live, origin, of, -1, -1);
    }

    /** The artifact entry of this item, admitted as {@code p}. */
    PlannedBuffer planned(Placement p) {
        return new PlannedBuffer(p.buffer(), p.space().name(), p.offset(), p.requested(), p.reserved(), p.alignment(),
                live, origin, of);
    }
}
