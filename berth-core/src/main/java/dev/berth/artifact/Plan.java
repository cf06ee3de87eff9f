package dev.berth.artifact;

import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The plan artifact {@code berth-plan} (contract §6), as data. Version 2 adds to every space
 * what is proved about its high-water mark ({@link SpaceMetrics#optimality()}); a plan read
 * from a version 1 file has none, and stays version 1 when written again.
 */
public record Plan(Target target, String workload, SolverChoice solver, Map<String, SpaceMetrics> spaces,
                   List<PlannedBuffer> buffers, List<DescriptorEntry> descriptors) {
    public static final String FORMAT = "berth-plan";
    /** The version Berth writes. */
    public static final int VERSION = 2;
    /** The oldest version Berth reads. */
    public static final int OLDEST_READ = 1;

    public Plan {
        Objects.requireNonNull(solver, "solver");
        spaces = Collections.unmodifiableMap(new LinkedHashMap<>(spaces));
        buffers = List.copyOf(buffers);
        descriptors = List.copyOf(descriptors);
        long with = spaces.values().stream().filter(m -> m.optimality().isPresent()).count();
        if (with != 0 && with != spaces.size()) {
            throw new IllegalArgumentException("either every space says what is proved about it (version 2) or none "
                    + "does (version 1): " + with + " of " + spaces.size() + " do");
        }
    }

    /** 2 when the spaces say what is proved about them, 1 for a plan read from a version 1 file. */
    public int version() {
        return !spaces.isEmpty() && spaces.values().iterator().next().optimality().isPresent() ? VERSION : 1;
    }
}
