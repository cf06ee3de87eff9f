package dev.berth.artifact;

import dev.berth.failure.Require;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The named metrics of one space (contract §6). Never one "memory usage": the high-water
 * mark, the peak of live reserved bytes (the lower bound), what generation added and what
 * the runtime keeps; and, in plans of version 2, what is proved about the high-water mark
 * ({@link Optimality}; empty for a version 1 plan).
 */
public record SpaceMetrics(String kind, OptionalLong capacity, long highWater, long peakLive,
                           long generationOverhead, long runtimeReserve, Optional<Optimality> optimality) {

    public SpaceMetrics {
        Require.name(kind, "spaces.kind");
        Require.nonNull(capacity, "spaces.capacity");
        Require.nonNull(optimality, "spaces.optimality");
    }

    /** Metrics without what is proved about them (a version 1 plan). */
    public SpaceMetrics(String kind, OptionalLong capacity, long highWater, long peakLive, long generationOverhead,
                        long runtimeReserve) {
        this(kind, capacity, highWater, peakLive, generationOverhead, runtimeReserve, Optional.empty());
    }

    /** {@code peakLive / highWater}; 1 for an empty space. */
    public double efficiency() {
        return highWater == 0 ? 1.0 : (double) peakLive / highWater;
    }
}
