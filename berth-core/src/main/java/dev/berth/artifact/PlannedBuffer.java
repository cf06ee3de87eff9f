package dev.berth.artifact;

import dev.berth.failure.Require;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;

import java.util.Optional;

/**
 * One reservation of the plan artifact (contract §6 {@code buffers[]}); {@code sharesWith} names
 * the input a tensor is written over, at its offset (version 4, a workload with operators).
 */
public record PlannedBuffer(String name, String space, long offset, long requested, long reserved, long alignment,
                            Lifetime live, Origin origin, Optional<String> of, Optional<String> sharesWith) {
    public PlannedBuffer {
        Require.name(name, "buffers.name");
        Require.name(space, "buffers.space");
        Require.nonNull(live, "buffers.live");
        Require.nonNull(origin, "buffers.origin");
        Require.nonNull(of, "buffers.of");
        Require.nonNull(sharesWith, "buffers.sharesWith");
    }

    /** A reservation written over nothing. */
    public PlannedBuffer(String name, String space, long offset, long requested, long reserved, long alignment,
                         Lifetime live, Origin origin, Optional<String> of) {
        this(name, space, offset, requested, reserved, alignment, live, origin, of, Optional.empty());
    }

    /** This reservation written over {@code input}, at its offset. */
    public PlannedBuffer sharing(String input) {
        return new PlannedBuffer(name, space, offset, requested, reserved, alignment, live, origin, of,
                Optional.of(Require.name(input, "buffers.sharesWith")));
    }
}
