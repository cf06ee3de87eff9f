package dev.berth.assign;

import static dev.berth.assign.DerivedNames.DESCRIPTOR_TABLE;
import static dev.berth.assign.DerivedNames.INSTRUCTIONS;
import static dev.berth.assign.DerivedNames.TILE_BUFFER;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.TileSpec;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a workload against a target before anything is placed: every space is the target's
 * own, tiles go through a local space of a target that generates descriptors, no name is one
 * Berth derives. (What needs no target, such as unique names, {@link Workload} checks itself.)
 * Every problem is {@code invalid-input} with its path.
 */
public final class WorkloadCheck {
    private WorkloadCheck() {
    }

    public static void check(Target target, Workload w) {
        Set<String> later = placedLater(target, w);
        for (int i = 0; i < w.buffers().size(); i++) {
            BufferSpec b = w.buffers().get(i);
            for (int j = 0; j < b.candidates().size(); j++) {
                Space c = b.candidates().get(j);
                if (isOwn(target, c)) {
                    continue;
                }
                String at = "buffers[" + i + "].space" + (b.hasChoice() ? "[" + j + "]" : "");
                try {
                    requireOf(target, c, at);
                } catch (BerthException e) {
                    throw BerthException.invalid(at, c.name(), "buffer '" + b.name() + "': " + e.failure().message());
                }
            }
            if (b.hasChoice()) {
                checkChoice(later, b, "buffers[" + i + "]");
            }
            if (b.tile().isPresent()) {
                String path = "buffers[" + i + "]";
                TileSpec t = b.tile().get();
                if (target.generation().isEmpty() || target.generation().get().descriptor().isEmpty()) {
                    throw Require.invalid(path + ".tile", "target " + target.name()
                            + " has no generation.descriptor block, so tiles cannot be generated");
                }
                Space through = requireOf(target, t.through(), path + ".tile.through");
                if (!(through instanceof Space.Local)) {
                    throw Require.invalid(path + ".tile.through", through.name(), "space '"
                            + through.name() + "' is " + through.kind() + "; tiles go through a local space");
                }
            }
        }
        for (int i = 0; i < w.fixed().size(); i++) {
            FixedRegion f = w.fixed().get(i);
            if (!isOwn(target, f.space())) {
                requireOf(target, f.space(), "fixed[" + i + "].space");
            }
        }
        if (mayTakeReservedName(w)) {
            Set<String> names = new HashSet<>();
            w.buffers().forEach(b -> names.add(b.name()));
            w.fixed().forEach(f -> names.add(f.name()));
            checkReservedNames(target, w, names);
        }
    }

    /**
     * Whether a name of the workload could be one Berth reserves ({@link #checkReservedNames}):
     * one of generation's two names, or one with {@code .tilebuf.} in it. Most workloads have
     * neither, and then no set of a million names is built to find that out.
     */
    private static boolean mayTakeReservedName(Workload w) {
        for (BufferSpec b : w.buffers()) {
            if (reservedLike(b.name())) {
                return true;
            }
        }
        for (FixedRegion f : w.fixed()) {
            if (reservedLike(f.name())) {
                return true;
            }
        }
        return false;
    }

    private static boolean reservedLike(String name) {
        return name.equals(DESCRIPTOR_TABLE) || name.equals(INSTRUCTIONS) || name.contains(TILE_BUFFER);
    }

    /** The spaces that receive reservations after the choice of spaces: tiles' through spaces, generation's spaces. */
    private static Set<String> placedLater(Target target, Workload w) {
        Set<String> later = new HashSet<>();
        for (BufferSpec o : w.buffers()) {
            o.tile().ifPresent(t -> later.add(t.through().name()));
        }
        target.generation().ifPresent(g -> {
            g.descriptor().ifPresent(d -> later.add(d.space()));
            g.instruction().ifPresent(i -> later.add(i.space()));
        });
        return later;
    }

    /**
     * A buffer with candidates may not choose a space with a capacity that something placed after
     * the assignment needs room in ({@code later}): a tile's through space or the space of
     * generation's allocations.
     */
    private static void checkChoice(Set<String> later, BufferSpec b, String path) {
        for (int j = 0; j < b.candidates().size(); j++) {
            Space s = b.candidates().get(j);
            if (s.capacity().isPresent() && later.contains(s.name())) {
                throw BerthException.invalid(path + ".space[" + j + "]", s.name(), "buffer '" + b.name() + "': candidate "
                        + "space '" + s.name() + "' has a capacity and also receives tile buffers or generation's "
                        + "allocations, which are placed after the choice of spaces; give this buffer one space");
            }
        }
    }

    /** True when {@code space} is the target's space of its name (what {@link #requireOf} accepts). */
    private static boolean isOwn(Target target, Space space) {
        Space own = target.spaces().get(space.name());
        return own != null && (own == space || own.equals(space));
    }

    /**
     * {@code space} itself, when it is the target's space of its name; {@code invalid-input}
     * naming {@code path} when the target has no such space or a different one of that name.
     */
    private static Space requireOf(Target target, Space space, String path) {
        Space own = target.space(space.name(), path);
        if (!own.equals(space)) {
            throw Require.invalid(path, space.name(), "space '" + space.name() + "' is not target " + target.name()
                    + "'s space of that name: " + space.describe() + " given, the target has " + own.describe()
                    + " (Workload.on(target) moves a workload onto another target)");
        }
        return own;
    }

    /** Names Berth gives to derived reservations may not be taken by the workload. */
    private static void checkReservedNames(Target target, Workload w, Set<String> names) {
        List<String> derived = new ArrayList<>();
        if (target.generation().isPresent()) {
            derived.add(DESCRIPTOR_TABLE);
            derived.add(INSTRUCTIONS);
        }
        // the names TENSOR.tilebuf.N of every tiled TENSOR, found by the part before each ".tilebuf."
        // of a name (one pass over the names, not one per tiled buffer), in the names' order
        Map<String, List<String>> byTensor = new HashMap<>();
        for (String n : names) {
            for (int k = n.indexOf(TILE_BUFFER); k >= 0; k = n.indexOf(TILE_BUFFER, k + 1)) {
                byTensor.computeIfAbsent(n.substring(0, k), x -> new ArrayList<>()).add(n);
            }
        }
        for (BufferSpec b : w.buffers()) {
            if (b.tile().isPresent()) {
                derived.addAll(byTensor.getOrDefault(b.name(), List.of()));
            }
        }
        for (String d : derived) {
            if (names.contains(d)) {
                throw BerthException.invalid(d, d, "the name '" + d + "' is reserved for a reservation Berth derives "
                        + "(tile buffers are named TENSOR.tilebuf.N; generation adds descriptor-table and instructions); "
                        + "rename the workload's buffer");
            }
        }
    }
}
