package dev.berth.workload;

import dev.berth.failure.BerthException;
import dev.berth.target.Space;
import dev.berth.target.Target;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks a workload against a target before anything is placed: known spaces, unique names,
 * sound fixed-region records. Every problem is {@code invalid-input} with its path.
 */
public final class WorkloadCheck {
    private WorkloadCheck() {
    }

    public static void check(Target target, Workload w) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < w.buffers().size(); i++) {
            BufferSpec b = w.buffers().get(i);
            String path = "buffers[" + i + "]";
            if (!names.add(b.name())) {
                throw BerthException.invalid(path + ".name", b.name(), path + ".name: duplicate name '" + b.name() + "'");
            }
            target.space(b.space(), path + ".space");
            if (b.alignment() <= 0) {
                throw BerthException.invalid(path + ".alignment", Long.toString(b.alignment()),
                        path + ".alignment: must be a positive whole number, got " + b.alignment());
            }
            if (b.tile().isPresent()) {
                TileSpec t = b.tile().get();
                if (target.generation().isEmpty() || target.generation().get().descriptor().isEmpty()) {
                    throw BerthException.invalid(path + ".tile", path + ".tile: target " + target.name()
                            + " has no generation.descriptor block, so tiles cannot be generated");
                }
                Space through = target.space(t.through(), path + ".tile.through");
                if (!(through instanceof Space.Local)) {
                    throw BerthException.invalid(path + ".tile.through", t.through(), path + ".tile.through: space '"
                            + t.through() + "' is " + through.kind() + "; tiles go through a local space");
                }
                if (t.buffers() < 1) {
                    throw BerthException.invalid(path + ".tile.buffers", Integer.toString(t.buffers()),
                            path + ".tile.buffers: must be at least 1");
                }
                if (t.count().isPresent() && t.count().getAsInt() < 1) {
                    throw BerthException.invalid(path + ".tile.count", Integer.toString(t.count().getAsInt()),
                            path + ".tile.count: must be at least 1");
                }
            }
        }
        for (int i = 0; i < w.fixed().size(); i++) {
            FixedRegion f = w.fixed().get(i);
            String path = "fixed[" + i + "]";
            if (!names.add(f.name())) {
                throw BerthException.invalid(path + ".name", f.name(), path + ".name: duplicate name '" + f.name() + "'");
            }
            target.space(f.space(), path + ".space");
            if (f.offset() < 0 || f.size() < 0 || f.size() > Long.MAX_VALUE - f.offset()) {
                throw BerthException.invalid(path, path + ": the earlier stage's record is corrupt: offset " + f.offset()
                        + " + size " + f.size() + " is not a range of bytes in 0..2^63-1");
            }
        }
        checkFixedOverlaps(w.fixed());
        checkReservedNames(target, w, names);
    }

    /** Names Berth gives to derived reservations may not be taken by the workload. */
    private static void checkReservedNames(Target target, Workload w, Set<String> names) {
        List<String> derived = new ArrayList<>();
        if (target.generation().isPresent()) {
            derived.add("descriptor-table");
            derived.add("instructions");
        }
        for (BufferSpec b : w.buffers()) {
            if (b.tile().isPresent()) {
                for (String n : names) {
                    if (n.startsWith(b.name() + ".tilebuf.")) {
                        derived.add(n);
                    }
                }
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

    private static void checkFixedOverlaps(List<FixedRegion> fixed) {
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < fixed.size(); i++) {
            idx.add(i);
        }
        idx.sort(Comparator.comparing((Integer i) -> fixed.get(i).space()).thenComparingLong(i -> fixed.get(i).offset()));
        for (int a = 0; a < idx.size(); a++) {
            FixedRegion x = fixed.get(idx.get(a));
            for (int b = a + 1; b < idx.size(); b++) {
                FixedRegion y = fixed.get(idx.get(b));
                if (!y.space().equals(x.space()) || y.offset() >= x.offset() + x.size()) {
                    break;
                }
                if (x.size() > 0 && y.size() > 0 && x.live().overlaps(y.live())) {
                    throw BerthException.invalid("fixed[" + idx.get(b) + "]", "fixed[" + idx.get(b)
                            + "]: the earlier stage's record is corrupt: " + y.name() + " [" + y.offset() + ", +"
                            + y.size() + ") overlaps " + x.name() + " [" + x.offset() + ", +" + x.size()
                            + ") in space " + x.space() + " during common steps");
                }
            }
        }
    }
}
