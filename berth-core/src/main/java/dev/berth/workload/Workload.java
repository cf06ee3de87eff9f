package dev.berth.workload;

import dev.berth.sweep.OverlapSweep;
import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Failure;
import dev.berth.failure.FixedOverlap;
import dev.berth.failure.InputDetail;
import dev.berth.failure.Require;
import dev.berth.target.Space;
import dev.berth.target.Target;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What to plan: buffers to place and fixed regions to place around, in input order (the order
 * of the artifact), and where the buffers' steps come from ({@link Operators}: their own, or
 * operators in a listed or chosen order). Names are unique across buffers and fixed regions,
 * and fixed regions of one space that are live at a common step do not overlap; what depends
 * on the target is checked when it is planned.
 *
 * <p>With {@link Operators.Listed}: the operators' rules hold ({@link Operators.Listed#graph}),
 * each buffer has one space and the steps of the listed order, and a buffer written over an
 * input is in the input's space, neither of them tiled. With {@link Operators.Ordered}: the
 * order names the workload's buffers, and each shared pair is two buffers of one space, neither
 * tiled, each output and each input in one pair. Every problem is {@code invalid-input} with its path.
 */
public record Workload(String name, List<BufferSpec> buffers, List<FixedRegion> fixed, Operators operators) {
    public Workload {
        Require.name(name, "workload");
        buffers = Require.elements(buffers, "buffers");
        fixed = Require.elements(fixed, "fixed");
        Require.nonNull(operators, "operators");
        Set<String> names = new HashSet<>();
        for (int i = 0; i < buffers.size(); i++) {
            String n = buffers.get(i).name();
            if (!names.add(n)) {
                throw Require.invalid("buffers[" + i + "].name", n, "duplicate name '"
                        + n + "'");
            }
        }
        for (int i = 0; i < fixed.size(); i++) {
            String n = fixed.get(i).name();
            if (!names.add(n)) {
                throw Require.invalid("fixed[" + i + "].name", n, "duplicate name '"
                        + n + "'");
            }
        }
        checkFixedOverlaps(fixed);
        if (operators instanceof Operators.Listed listed) {
            OperatorCheck.listed(name, buffers, listed);
        } else if (operators instanceof Operators.Ordered ordered) {
            OperatorCheck.ordered(buffers, ordered);
        }
    }

    /** A workload whose buffers give their own steps (no operators). */
    public Workload(String name, List<BufferSpec> buffers, List<FixedRegion> fixed) {
        this(name, buffers, fixed, new Operators.None());
    }

    /** The first step of building a workload: its name. */
    public static Builder builder(String name) {
        return new Builder(Require.name(name, "workload"));
    }

    /**
     * The same workload on {@code target}: every space (of a buffer, a fixed region, a tile) is
     * replaced by the target's space of the same name, for instance to plan the same buffers on
     * a device with a larger SRAM. {@code invalid-input} naming the buffer if the target has no
     * space of that name.
     */
    public Workload on(Target target) {
        Require.nonNull(target, "target");
        List<BufferSpec> bs = new ArrayList<>(buffers.size());
        for (int i = 0; i < buffers.size(); i++) {
            BufferSpec b = buffers.get(i);
            String path = "buffers[" + i + "]";
            Optional<TileSpec> tile = b.tile().map(t -> new TileSpec(target.space(t.through().name(),
                    path + ".tile.through"), t.buffers(), t.count()));
            List<Space> candidates = new ArrayList<>(b.candidates().size());
            for (int j = 0; j < b.candidates().size(); j++) {
                candidates.add(target.space(b.candidates().get(j).name(), path + ".space" + (b.hasChoice() ? "[" + j + "]" : "")));
            }
            bs.add(new BufferSpec(b.name(), b.size(), candidates, b.accesses(), b.alignment(), b.live(), tile));
        }
        List<FixedRegion> fs = new ArrayList<>(fixed.size());
        for (int i = 0; i < fixed.size(); i++) {
            FixedRegion f = fixed.get(i);
            fs.add(new FixedRegion(f.name(), target.space(f.space().name(), "fixed[" + i + "].space"), f.offset(),
                    f.size(), f.live()));
        }
        return new Workload(name, bs, fs, operators);
    }

    /** The number of steps: the largest {@code last} step + 1 (0 for an empty workload). */
    public long steps() {
        long max = -1;
        for (BufferSpec b : buffers) {
            max = Math.max(max, b.live().last());
        }
        for (FixedRegion f : fixed) {
            max = Math.max(max, f.live().last());
        }
        return max + 1;
    }

    /**
     * No two fixed regions of one space share a step and a byte: one sweep over the steps for each
     * space ({@link OverlapSweep}), O(n log n) however many regions reuse the same bytes at other steps.
     * The pair reported names the later region; the failure carries both indexes ({@link FixedOverlap}).
     */
    private static void checkFixedOverlaps(List<FixedRegion> fixed) {
        Map<String, List<Integer>> bySpace = new LinkedHashMap<>();
        for (int i = 0; i < fixed.size(); i++) {
            bySpace.computeIfAbsent(fixed.get(i).space().name(), k -> new ArrayList<>()).add(i);
        }
        for (List<Integer> idx : bySpace.values()) {
            int n = idx.size();
            long[] offset = new long[n];
            long[] end = new long[n];
            int[] first = new int[n];
            int[] last = new int[n];
            for (int k = 0; k < n; k++) {
                FixedRegion f = fixed.get(idx.get(k));
                offset[k] = f.offset();
                end[k] = Checked.add(f.offset(), f.size()); // within 2^63-1: FixedRegion checked it
                first[k] = f.live().first();
                last[k] = f.live().last();
            }
            int[] pair = OverlapSweep.firstConflict(offset, end, first, last);
            if (pair.length > 0) {
                int a = idx.get(pair[0]);
                int b = idx.get(pair[1]);
                FixedRegion x = fixed.get(a);
                FixedRegion y = fixed.get(b);
                String path = "fixed[" + b + "]";
                throw new BerthException(new Failure.InvalidInput(path + ": the earlier stage's record is corrupt: "
                        + y.name() + " [" + y.offset() + ", +" + y.size() + ") overlaps " + x.name() + " [" + x.offset()
                        + ", +" + x.size() + ") in space " + x.space().name() + " during common steps",
                        new InputDetail.Overlap(path, new FixedOverlap(b, a))));
            }
        }
    }

    /** Collects buffers and fixed regions in order; {@link #build} checks the whole. */
    public static final class Builder {
        private final String name;
        private final List<BufferSpec> buffers = new ArrayList<>();
        private final List<FixedRegion> fixed = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        public Builder buffer(BufferSpec buffer) {
            buffers.add(Require.nonNull(buffer, "buffer"));
            return this;
        }

        public Builder fixed(FixedRegion region) {
            fixed.add(Require.nonNull(region, "region"));
            return this;
        }

        public Workload build() {
            return new Workload(name, buffers, fixed);
        }
    }
}
