package dev.berth.artifact;

import dev.berth.failure.Require;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;

import java.util.Optional;

/** One reservation of the plan artifact (contract §6 {@code buffers[]}). */
public record PlannedBuffer(String name, String space, long offset, long requested, long reserved, long alignment,
                            Lifetime live, Origin origin, Optional<String> of) {
    public PlannedBuffer {
        Require.name(name, "buffers.name");
        Require.name(space, "buffers.space");
        Require.nonNull(live, "buffers.live");
        Require.nonNull(origin, "buffers.origin");
        Require.nonNull(of, "buffers.of");
    }
}
