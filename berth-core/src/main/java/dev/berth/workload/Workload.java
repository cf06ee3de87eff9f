package dev.berth.workload;

import java.util.List;

/** What to plan: buffers to place and fixed regions to place around. */
public record Workload(String name, List<BufferSpec> buffers, List<FixedRegion> fixed) {
    public Workload {
        buffers = List.copyOf(buffers);
        fixed = List.copyOf(fixed);
    }

    /** The number of steps: the largest {@code last} step + 1 (0 for an empty workload). */
    public long steps() {
        long max = -1;
        for (BufferSpec b : buffers) {
            max = Math.max(max, b.live().last());
        }
        for (FixedRegion f : fixed) {
            max = Math.max(max, f.live().last());
        }
        return max + 1;
    }
}
