package dev.berth.io;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code --fast-space SPACE} for an imported model (contract §7): every activation becomes a
 * candidate for the local space SPACE before its own space, with the import's estimate of its
 * accesses, so that the planner chooses which activations live in the fast memory.
 */
public final class FastSpace {
    private FastSpace() {
    }

    /**
     * The target with a local space {@code name}: the target's own (its capacity replaced by
     * {@code capacity} when given), or, when the target has none, a new local space of
     * {@code capacity} bytes with {@code slow}'s format and alignment. {@code invalid-input}
     * when the space is not local, is the activations' own space, or is missing and no capacity
     * is given.
     */
    public static Target target(Target t, String name, OptionalLong capacity, Space slow) {
        Require.spaceName(name, "--fast-space");
        if (name.equals(slow.name())) {
            throw Require.invalid("--fast-space", name, "'" + name + "' is the activations' own "
                    + "space; name the fast local space they may move to");
        }
        Map<String, Space> spaces = new LinkedHashMap<>(t.spaces());
        Space had = spaces.get(name);
        if (had != null && !(had instanceof Space.Local)) {
            throw Require.invalid("--fast-space", name, "space '" + name + "' of target " + t.name()
                    + " is " + had.kind() + "; the fast space is a local space with a capacity");
        }
        if (had == null && capacity.isEmpty()) {
            throw Require.invalid("--fast-space", name, "target " + t.name() + " has no space '" + name + "' (it has "
                    + String.join(", ", spaces.keySet()) + "); give --fast-capacity SIZE to add a "
                    + "local space of that name, or a target that has one");
        }
        if (capacity.isEmpty()) {
            return t;
        }
        long cap = capacity.getAsLong();
        Space.Local l = had == null ? null : (Space.Local) had;
        AddressFormat f = l == null ? slow.format() : l.format();
        long addressable = f.addressableBytes();
        if (cap > addressable) {
            throw BerthException.invalid("--fast-capacity", Long.toString(cap), "--fast-capacity " + cap + " is more "
                    + "than space " + name + "'s format " + f.name() + " addresses (" + addressable + " bytes); give at "
                    + "most that, or a target whose space " + name + " has a wider format");
        }
        long reserve = l == null ? 0 : l.runtimeReserve();
        if (cap < reserve) {
            throw BerthException.invalid("--fast-capacity", Long.toString(cap), "--fast-capacity " + cap
                    + " is below space " + name + "'s runtime reserve of " + reserve + " bytes");
        }
        spaces.put(name, l == null
                ? new Space.Local(name, slow.format(), slow.alignment(), 0, cap)
                : new Space.Local(name, l.format(), l.alignment(), reserve, cap, l.accessCost()));
        return new Target(t.name(), t.formats(), spaces, t.generation());
    }

    /**
     * The workload (on the target that has {@code fast}) with every buffer of {@code slow} that
     * {@code accesses} names given the candidates {@code [fast, slow]} and those accesses; every
     * other buffer unchanged.
     */
    public static Workload apply(Workload w, Space fast, Space slow, Map<String, Long> accesses) {
        List<BufferSpec> out = new ArrayList<>(w.buffers().size());
        for (BufferSpec b : w.buffers()) {
            Long n = accesses.get(b.name());
            if (n == null || b.hasChoice() || !b.space().equals(slow) || b.tile().isPresent()) {
                out.add(b);
            } else {
                out.add(new BufferSpec(b.name(), b.size(), List.of(fast, slow), n, b.alignment(), b.live(), b.tile()));
            }
        }
        return new Workload(w.name(), out, w.fixed(), w.operators());
    }
}
