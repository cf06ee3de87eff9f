package dev.berth.artifact;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.target.Space;
import dev.berth.target.Target;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The plan artifact {@code berth-plan} version 1 (contract §6), as data. */
public record Plan(Target target, String workload, String solver, Map<String, SpaceMetrics> spaces,
                   List<PlannedBuffer> buffers, List<DescriptorEntry> descriptors) {
    public static final String FORMAT = "berth-plan";
    public static final int VERSION = 1;

    public Plan {
        Require.nonNull(target, "target");
        Require.nonNull(workload, "workload");
        Require.nonNull(solver, "solver");
        spaces = Collections.unmodifiableMap(new LinkedHashMap<>(Require.nonNull(spaces, "spaces")));
        buffers = Require.elements(buffers, "buffers");
        descriptors = Require.elements(descriptors, "descriptors");
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
