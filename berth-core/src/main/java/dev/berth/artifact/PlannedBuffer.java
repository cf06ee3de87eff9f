package dev.berth.artifact;

import dev.berth.admit.Placement;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;

import java.util.Optional;

/** One reservation of the plan artifact (contract §6 {@code buffers[]}). */
public record PlannedBuffer(String name, String space, long offset, long requested, long reserved, long alignment,
                            Lifetime live, Origin origin, Optional<String> of) {

    /** The artifact entry of an admitted placement. */
    public static PlannedBuffer of(Placement p, Lifetime live, Origin origin, Optional<String> of) {
        return new PlannedBuffer(p.buffer(), p.space().name(), p.offset(), p.requested(), p.reserved(), p.alignment(),
                live, origin, of);
    }
}
