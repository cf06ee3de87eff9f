package dev.berth.artifact;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Space;
import dev.berth.target.Target;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
        Require.nonNull(target, "target");
        Require.nonNull(workload, "workload");
        Require.nonNull(solver, "solver");
        spaces = Collections.unmodifiableMap(new LinkedHashMap<>(Require.nonNull(spaces, "spaces")));
        buffers = Require.elements(buffers, "buffers");
        descriptors = Require.elements(descriptors, "descriptors");
        long with = spaces.values().stream().filter(m -> m.optimality().isPresent()).count();
        if (with != 0 && with != spaces.size()) {
            throw BerthException.invalid("spaces", "spaces: either every space says what is proved about its "
                    + "high-water mark (version 2) or none does (version 1); " + with + " of " + spaces.size() + " do");
        }
    }

    /** 2 when the spaces say what is proved about them, 1 for a plan read from a version 1 file. */
    public int version() {
        return !spaces.isEmpty() && spaces.values().iterator().next().optimality().isPresent() ? VERSION : 1;
    }

    /** The metrics of {@code space}; {@code invalid-input} if it is not a space of this plan's target. */
    public SpaceMetrics metrics(Space space) {
        SpaceMetrics m = spaces.get(own(space).name());
        if (m == null) {
            throw BerthException.invalid("space", space.name(), "space '" + space.name() + "': this plan has no "
                    + "metrics for it");
        }
        return m;
    }

    /** The reservations in {@code space}, in artifact order. */
    public List<PlannedBuffer> buffersIn(Space space) {
        String name = own(space).name();
        return buffers.stream().filter(b -> b.space().equals(name)).toList();
    }

    /** The reservation named {@code name}, if the plan has one. */
    public Optional<PlannedBuffer> buffer(String name) {
        Require.nonNull(name, "name");
        return buffers.stream().filter(b -> b.name().equals(name)).findFirst();
    }

    private Space own(Space space) {
        Require.nonNull(space, "space");
        Optional<Space> s = target.findSpace(space.name());
        if (s.isEmpty() || !s.get().equals(space)) {
            throw BerthException.invalid("space", space.name(), "space '" + space.name() + "' is not a space of target "
                    + target.name() + " (it has " + String.join(", ", target.spaces().keySet()) + ")");
        }
        return s.get();
    }
}
