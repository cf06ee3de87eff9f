package dev.berth.artifact;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.Operator;
import dev.berth.workload.Origin;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The plan artifact {@code berth-plan} (contract §6), as data. Version 2 adds to every space
 * what is proved about its high-water mark ({@link SpaceMetrics#optimality()}); a plan read
 * from a version 1 file has none, and stays version 1 when written again. Version 3 adds, for
 * a workload whose buffers had candidate spaces, the {@link Assignment}: the traffic cost, its
 * lower bound, the proof and, per buffer not in its first candidate, why; a plan without one is
 * version 2 (or 1), as before. Version 4 adds, for a workload with operators, the order the
 * operators run in ({@code order}: step {@code i} is {@code order.get(i)}) and, on each tensor
 * written over an input, {@link PlannedBuffer#sharesWith()}; such a plan may also have an assignment.
 */
public record Plan(Target target, String workload, SolverChoice solver, Map<String, SpaceMetrics> spaces,
                   List<PlannedBuffer> buffers, List<DescriptorEntry> descriptors, Optional<Assignment> assignment,
                   Optional<List<Operator>> order) {
    public static final String FORMAT = "berth-plan";
    /** The newest version Berth writes (a plan with an operator order). */
    public static final int VERSION = 4;
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
            throw Require.invalid("spaces", "either every space says what is proved about its "
                    + "high-water mark (version 2) or none does (version 1); " + with + " of " + spaces.size() + " do");
        }
        Require.nonNull(assignment, "assignment");
        if (assignment.isPresent()) {
            if (with == 0) {
                throw Require.invalid("assignment", "a plan with an assignment (version 3) also says "
                        + "what is proved about each space's high-water mark (version 2)");
            }
            checkChoices(target, buffers, assignment.get());
        }
        Require.nonNull(order, "order");
        if (order.isPresent()) {
            order = Optional.of(Require.elements(order.get(), "order"));
            if (with == 0) {
                throw Require.invalid("order", "a plan with an operator order (version 4) also says "
                        + "what is proved about each space's high-water mark (version 2)");
            }
        } else {
            for (int i = 0; i < buffers.size(); i++) {
                if (buffers.get(i).sharesWith().isPresent()) {
                    throw Require.invalid("buffers[" + i + "].sharesWith", buffers.get(i).sharesWith().get(),
                            "a plan without an operator order (before version 4) has no "
                                    + "buffer written over another");
                }
            }
        }
    }

    /** A plan without an operator order (its workload had no operators). */
    public Plan(Target target, String workload, SolverChoice solver, Map<String, SpaceMetrics> spaces,
                List<PlannedBuffer> buffers, List<DescriptorEntry> descriptors, Optional<Assignment> assignment) {
        this(target, workload, solver, spaces, buffers, descriptors, assignment, Optional.empty());
    }

    /** A plan without an assignment (its workload had no candidate spaces) and without an operator order. */
    public Plan(Target target, String workload, SolverChoice solver, Map<String, SpaceMetrics> spaces,
                List<PlannedBuffer> buffers, List<DescriptorEntry> descriptors) {
        this(target, workload, solver, spaces, buffers, descriptors, Optional.empty());
    }

    /**
     * Every choice names a tensor of the plan, in the space the plan holds it in, and names it
     * once; the space of a reason is a space of the target.
     */
    private static void checkChoices(Target target, List<PlannedBuffer> buffers, Assignment a) {
        Map<String, String> spaceOf = new LinkedHashMap<>();
        for (PlannedBuffer b : buffers) {
            if (b.origin() == Origin.TENSOR) {
                spaceOf.put(b.name(), b.space());
            }
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < a.choices().size(); i++) {
            Assignment.Choice c = a.choices().get(i);
            String p = "assignment.choices[" + i + "]";
            String in = spaceOf.get(c.buffer());
            if (in == null) {
                throw Require.invalid(p + ".buffer", c.buffer(), "'" + c.buffer()
                        + "' is not a tensor of the plan's buffers");
            }
            if (!seen.add(c.buffer())) {
                throw Require.invalid(p + ".buffer", c.buffer(), "'" + c.buffer()
                        + "' has two choices");
            }
            if (!in.equals(c.space())) {
                throw Require.invalid(p + ".space", c.space(), "'" + c.space() + "', but the plan "
                        + "holds " + c.buffer() + " in " + in);
            }
            if (c.why().isPresent() && target.findSpace(c.why().get().space()).isEmpty()) {
                throw Require.invalid(p + ".why.space", c.why().get().space(), "'"
                        + c.why().get().space() + "' is not a space of target " + target.name());
            }
        }
    }

    /**
     * 4 with an operator order, 3 with an assignment, 2 when the spaces say what is proved about
     * them, 1 for a plan read from a version 1 file.
     */
    public int version() {
        if (order.isPresent()) {
            return VERSION;
        }
        if (assignment.isPresent()) {
            return 3;
        }
        return !spaces.isEmpty() && spaces.values().iterator().next().optimality().isPresent() ? 2 : 1;
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
