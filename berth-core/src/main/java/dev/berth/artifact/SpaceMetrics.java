package dev.berth.artifact;

import dev.berth.failure.Require;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The named metrics of one space (contract §6). Never one "memory usage": the high-water
 * mark, the peak of live reserved bytes (the lower bound) and the first step that has it,
 * what generation added and what the runtime keeps; and, in plans of version 2, what is
 * proved about the high-water mark ({@link Optimality}; empty for a version 1 plan).
 *
 * <p>{@code peakStep} is the first step at which {@code peakLive} bytes are live, or -1 when
 * no reserved byte is live at any step ({@code peakLive} 0: an empty space, or one holding only
 * empty reservations). The planner sets it; the plan artifact carries it from version 2 on, and
 * {@code PlanJson} recomputes it when it reads a version 1 plan.
 */
public record SpaceMetrics(String kind, OptionalLong capacity, long highWater, long peakLive, int peakStep,
                           long generationOverhead, long runtimeReserve, Optional<Optimality> optimality) {
    public SpaceMetrics {
        Require.name(kind, "spaces.kind");
        Require.nonNull(capacity, "spaces.capacity");
        Require.nonNull(optimality, "spaces.optimality");
        // whether the numbers agree with the reservations is the plan validator's to say
        if (peakStep < -1) {
            throw Require.invalid("spaces.peakStep", Integer.toString(peakStep),
                    peakStep + " is neither a step nor -1 (no byte live)");
        }
    }

    /** Metrics without what is proved about them (a version 1 plan). */
    public SpaceMetrics(String kind, OptionalLong capacity, long highWater, long peakLive, int peakStep,
                        long generationOverhead, long runtimeReserve) {
        this(kind, capacity, highWater, peakLive, peakStep, generationOverhead, runtimeReserve, Optional.empty());
    }

    /** {@code peakLive / highWater}; 1 for an empty space. */
    public double efficiency() {
        return highWater == 0 ? 1.0 : (double) peakLive / highWater;
    }
}
