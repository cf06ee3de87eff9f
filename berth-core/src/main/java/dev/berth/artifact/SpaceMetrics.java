package dev.berth.artifact;

import dev.berth.failure.Require;

import java.util.OptionalLong;

/**
 * The named metrics of one space (contract §6). Never one "memory usage": the high-water
 * mark, the peak of live reserved bytes (the lower bound), what generation added and what
 * the runtime keeps.
 */
public record SpaceMetrics(String kind, OptionalLong capacity, long highWater, long peakLive,
                           long generationOverhead, long runtimeReserve) {
    public SpaceMetrics {
        Require.name(kind, "spaces.kind");
        Require.nonNull(capacity, "spaces.capacity");
    }

    /** {@code peakLive / highWater}; 1 for an empty space. */
    public double efficiency() {
        return highWater == 0 ? 1.0 : (double) peakLive / highWater;
    }
}
