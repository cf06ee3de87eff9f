package dev.berth.artifact;

import java.util.OptionalLong;

/**
 * The named metrics of one space (contract §6). Never one "memory usage": the high-water
 * mark, the peak of live reserved bytes (the lower bound), what generation added and what
 * the runtime keeps.
 */
public record SpaceMetrics(String kind, OptionalLong capacity, long highWater, long peakLive,
                           long generationOverhead, long runtimeReserve) {

    /** {@code peakLive / highWater}; 1 for an empty space. */
    public double efficiency() {
        return highWater == 0 ? 1.0 : (double) peakLive / highWater;
    }
}
