package dev.berth.deploy;

import dev.berth.admit.Admission;
import dev.berth.arith.Checked;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.BerthException;
import dev.berth.failure.DeployInput;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.failure.InputDetail;
import dev.berth.failure.Require;
import dev.berth.target.Space;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code check-deploy}: the runtime's capacity is checked here, at deployment, never guessed
 * at compile time. For each logical space: need = {@code highWater + runtimeReserve}
 * (checked) against what the runtime provides; with a loader base, every absolute address
 * against the space's format and every descriptor against its {@code addressFormat}.
 * Precedence as in contract §1: input, arithmetic, format, capacity. A deployment input that
 * does not match the plan is {@code invalid-input} carrying a {@link DeployInput}, so that a
 * caller can name the input in its own terms.
 */
public final class DeployCheck {

    /** What one logical space needs and gets. */
    public record SpaceNeed(String space, long highWater, long runtimeReserve, long needed, long provided) {
        public long spare() {
            return provided - needed;
        }
    }

    private DeployCheck() {
    }

    /**
     * Checks {@code plan} against what the runtime provides: {@code provide} maps each logical
     * space to its capacity in bytes (a space that needs no byte, high-water mark and runtime
     * reserve 0, may be left out: it is then provided 0), {@code base} some logical spaces to the
     * loader's base address. The result has one need per logical space, in the target's order. A null argument, key or value is a NullPointerException naming it
     * ({@code provide[global]}); a negative capacity or base is {@code invalid-input} at
     * {@code provide.SPACE} or {@code base.SPACE}, before anything else is checked.
     */
    public static Map<String, SpaceNeed> check(Plan plan, Map<String, Long> provide, Map<String, Long> base) {
        Objects.requireNonNull(plan, "plan");
        requireBytes(provide, DeployInput.Input.PROVIDED_CAPACITY, "a capacity");
        requireBytes(base, DeployInput.Input.LOADER_BASE, "an address");
        // a plan whose numbers do not add up (or that names a space or format its target lacks) is bad input
        if (PlanValidator.validate(plan) instanceof Verdict.Invalid bad) {
            throw BerthException.invalid("plan", "the plan does not pass validation: " + bad);
        }
        Map<String, Space> spaces = plan.target().spaces();
        requireInputsMatch(plan, spaces, provide, base);
        Map<String, SpaceNeed> needs = needs(plan, spaces, provide);
        requireEncodableAtBase(plan, spaces, base);
        requireCapacity(needs);
        return needs;
    }

    /**
     * Every space an input names is a logical space of the target, and every logical space that
     * needs a byte is given a capacity.
     */
    private static void requireInputsMatch(Plan plan, Map<String, Space> spaces, Map<String, Long> provide,
                                           Map<String, Long> base) {
        for (String s : provide.keySet()) {
            requireLogical(spaces, s, DeployInput.Input.PROVIDED_CAPACITY);
        }
        for (String s : base.keySet()) {
            requireLogical(spaces, s, DeployInput.Input.LOADER_BASE);
        }
        for (Space s : spaces.values()) {
            // a space that needs no byte needs no capacity from the runtime
            if (s instanceof Space.Logical && !provide.containsKey(s.name()) && !needsNothing(plan, s)) {
                throw mismatch("logical space " + s.name() + " is given no capacity (what the runtime gives it)",
                        new DeployInput(DeployInput.Input.PROVIDED_CAPACITY, s.name(),
                                DeployInput.Mismatch.NOT_PROVIDED, Optional.empty(), List.of()));
            }
        }
    }

    /** The arithmetic: each logical space's need (high-water mark plus runtime reserve), checked, and its capacity. */
    private static Map<String, SpaceNeed> needs(Plan plan, Map<String, Space> spaces, Map<String, Long> provide) {
        Map<String, SpaceNeed> needs = new LinkedHashMap<>();
        for (Space s : spaces.values()) {
            if (!(s instanceof Space.Logical)) {
                continue;
            }
            SpaceMetrics m = plan.spaces().get(s.name());
            long need;
            try {
                need = Checked.add(m.highWater(), m.runtimeReserve());
            } catch (BerthException e) {
                throw new BerthException(new Failure.ArithmeticOverflow("space " + s.name() + ": need = highWater "
                        + m.highWater() + " + runtimeReserve " + m.runtimeReserve() + " is past 2^63-1", "add",
                        Facts.NONE.withSpace(s.name())));
            }
            needs.put(s.name(), new SpaceNeed(s.name(), m.highWater(), m.runtimeReserve(), need,
                    provide.getOrDefault(s.name(), 0L)));
        }
        return needs;
    }

    /** The format, at the loader's base: every reservation and descriptor of a based space still encodable there. */
    private static void requireEncodableAtBase(Plan plan, Map<String, Space> spaces, Map<String, Long> base) {
        for (Map.Entry<String, Long> e : base.entrySet()) {
            Space s = spaces.get(e.getKey());
            long b = e.getValue();
            for (PlannedBuffer pb : plan.buffers()) {
                if (pb.space().equals(s.name())) {
                    Admission.encodableAt(s.format(), pb.name(), s.name(), b, pb.offset(), pb.reserved());
                }
            }
            for (DescriptorEntry d : plan.descriptors()) {
                if (d.space().equals(s.name())) {
                    Admission.encodableAt(plan.target().formats().get(d.addressFormat()), "descriptor " + d.name(),
                            s.name(), b, d.address(), d.transferBytes());
                }
            }
        }
    }

    /** The capacity: each space's need within what the runtime provides. */
    private static void requireCapacity(Map<String, SpaceNeed> needs) {
        for (SpaceNeed n : needs.values()) {
            if (n.needed() > n.provided()) {
                long shortBy = n.needed() - n.provided();
                throw new BerthException(new Failure.InsufficientDeploymentCapacity("space " + n.space() + " needs "
                        + n.needed() + " bytes (highWater " + n.highWater() + " + runtimeReserve " + n.runtimeReserve()
                        + ") but the runtime provides " + n.provided() + ": short by " + shortBy + " bytes",
                        n.space(), n.needed(), n.provided(), shortBy));
            }
        }
    }

    /** Whether logical space {@code s} needs no byte at deployment: high-water mark and runtime reserve both 0. */
    private static boolean needsNothing(Plan plan, Space s) {
        SpaceMetrics m = plan.spaces().get(s.name());
        return m.highWater() == 0 && m.runtimeReserve() == 0;
    }

    /** Null keys and values of an input map are NullPointerExceptions, negative values {@code invalid-input}. */
    private static void requireBytes(Map<String, Long> values, DeployInput.Input input, String what) {
        String id = input.id();
        Objects.requireNonNull(values, id);
        for (Map.Entry<String, Long> e : values.entrySet()) {
            String space = Objects.requireNonNull(e.getKey(), id + " key");
            Long v = Objects.requireNonNull(e.getValue(), id + "[" + space + "]");
            if (v < 0) {
                throw Require.invalid(id + "." + space, v.toString(), what
                        + " is a whole number of bytes in 0..2^63-1, got " + v);
            }
        }
    }

    private static void requireLogical(Map<String, Space> spaces, String name, DeployInput.Input input) {
        Space s = spaces.get(name);
        String what = input == DeployInput.Input.PROVIDED_CAPACITY ? "provided capacity" : "loader base";
        if (s == null) {
            throw mismatch(what + ": the plan has no space '" + name + "' (it has " + String.join(", ", spaces.keySet())
                    + ")", new DeployInput(input, name, DeployInput.Mismatch.NO_SUCH_SPACE,
                    Optional.empty(), List.copyOf(spaces.keySet())));
        }
        if (!(s instanceof Space.Logical)) {
            throw mismatch(what + ": space '" + name + "' is " + s.kind()
                    + "; only logical spaces get their capacity and base at deployment",
                    new DeployInput(input, name, DeployInput.Mismatch.NOT_LOGICAL, Optional.of(s.kind()), List.of()));
        }
    }

    /**
     * An {@code invalid-input} failure about a deployment input, with its facts; the path is the input's name,
     * the text the space it names ({@link InputDetail.Deployment#text}).
     */
    private static BerthException mismatch(String message, DeployInput facts) {
        return new BerthException(new Failure.InvalidInput(message, new InputDetail.Deployment(facts.input().id(),
                facts)));
    }
}
