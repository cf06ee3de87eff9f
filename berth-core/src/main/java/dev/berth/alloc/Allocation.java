package dev.berth.alloc;

import dev.berth.admit.Placement;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;

/** An admitted placement held by an allocator over the steps it is live. */
public record Allocation(Placement placement, Lifetime live, Origin origin) {

    public String name() {
        return placement.buffer();
    }

    /** True when the two share a step and a byte. Zero-byte reservations overlap nothing. */
    public boolean conflicts(Allocation o) {
        Placement a = placement;
        Placement b = o.placement;
        return live.overlaps(o.live) && a.reserved() > 0 && b.reserved() > 0
                && a.offset() < b.end() && b.offset() < a.end();
    }
}
