package dev.berth.plan;

import dev.berth.admit.Placement;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;

import java.util.Optional;

/**
 * One reservation to make in a space: a workload buffer, a fixed region or a tile buffer.
 * {@code fixedOffset} is -1 unless an earlier stage placed it.
 */
record Item(String name, long requested, long alignment, Lifetime live, Origin origin, Optional<String> of,
            long fixedOffset) {

    /** The artifact entry of this item, admitted as {@code p}. */
    PlannedBuffer planned(Placement p) {
        return new PlannedBuffer(p.buffer(), p.space().name(), p.offset(), p.requested(), p.reserved(), p.alignment(),
                live, origin, of);
    }
}
