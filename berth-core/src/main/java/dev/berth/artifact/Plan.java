package dev.berth.artifact;

import dev.berth.target.Target;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The plan artifact {@code berth-plan} version 1 (contract §6), as data. */
public record Plan(Target target, String workload, String solver, Map<String, SpaceMetrics> spaces,
                   List<PlannedBuffer> buffers, List<DescriptorEntry> descriptors) {
    public static final String FORMAT = "berth-plan";
    public static final int VERSION = 1;

    public Plan {
        spaces = Collections.unmodifiableMap(new LinkedHashMap<>(spaces));
        buffers = List.copyOf(buffers);
        descriptors = List.copyOf(descriptors);
    }
}
