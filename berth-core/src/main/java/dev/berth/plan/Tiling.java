package dev.berth.plan;

import dev.berth.admit.Admission;
import dev.berth.admit.Placement;
import dev.berth.alloc.Allocation;
import dev.berth.alloc.SpaceAllocator;
import dev.berth.arith.Checked;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.assign.DerivedNames;
import dev.berth.failure.BerthException;
import dev.berth.failure.Failure;
import dev.berth.failure.Shortfall;
import dev.berth.target.AddressFormat;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Origin;
import dev.berth.workload.TileSpec;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tiled planning (contract §5 {@code tile}). A tiled tensor stays in its own space; its
 * {@code min(buffers, count)} tile buffers go into the local space {@code through}, placed by
 * that space's {@link SpaceAllocator} around everything already there. Without a given count
 * the fewest tiles that fit are found by tentative allocation: each failed try is rolled back
 * to a checkpoint, so it leaves no trace. Each tile gets one descriptor whose byte range
 * passes the tensor space's format and the descriptor's own {@code addressFormat}.
 */
final class Tiling {
    private Tiling() {
    }

    /**
     * Tiles every tiled buffer of {@code w}: adds each tile buffer to the plan of its through
     * space, with the tensor it serves, and returns the descriptors, one per tile (none when no
     * buffer is tiled).
     */
    static List<DescriptorEntry> tile(Target target, Workload w, SpacePlans spaces) {
        if (w.buffers().stream().noneMatch(b -> b.tile().isPresent())) {
            return List.of();
        }
        Map<SpacePlan, SpaceAllocator> allocators = new LinkedHashMap<>();
        List<DescriptorEntry> descriptors = new ArrayList<>();
        Map<String, String> tensorOf = new LinkedHashMap<>();
        Map<String, Placement> tensors = new LinkedHashMap<>();
        for (SpacePlan sp : spaces) {
            for (Placement p : sp.placed()) {
                tensors.put(p.buffer(), p);
            }
        }
        for (BufferSpec b : w.buffers()) {
            if (b.tile().isEmpty()) {
                continue;
            }
            TileSpec t = b.tile().get();
            Space through = t.through();
            SpaceAllocator alloc = allocators.computeIfAbsent(spaces.of(through), Tiling::load);
            long align = Admission.effectiveAlignment(through, b.name() + ".tile", b.size(), b.alignment());
            Chosen chosen = t.count().isPresent()
                    ? reserveTiles(alloc, b, t, t.count().getAsInt(), align)
                    : search(alloc, b, t, align);
            for (int j = 0; j < Math.min(t.buffers(), chosen.count); j++) {
                tensorOf.put(tileBufferName(b, j), b.name());
            }
            descriptors.addAll(descriptors(target, b, tensors.get(b.name()), chosen));
        }
        for (Map.Entry<SpacePlan, SpaceAllocator> e : allocators.entrySet()) {
            for (Allocation a : e.getValue().allocations()) {
                if (a.origin() == Origin.TILE) {
                    e.getKey().add(a.placement(), a.live(), Origin.TILE, Optional.of(tensorOf.get(a.name())));
                }
            }
        }
        return descriptors;
    }

    /** The through space's allocator holding what the solver already placed there. */
    private static SpaceAllocator load(SpacePlan sp) {
        List<Item> items = sp.items();
        List<Placement> ps = sp.placed();
        SpaceAllocator a = new SpaceAllocator(sp.space());
        List<SpaceAllocator.At> placed = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Item it = items.get(i);
            Placement p = ps.get(i);
            placed.add(it.fixedOffset() >= 0
                    ? new SpaceAllocator.At(it.name(), it.live(), p.offset(), p.requested(), 1, Admission.Mode.EXACT,
                    it.origin())
                    : new SpaceAllocator.At(it.name(), it.live(), p.offset(), p.requested(), it.alignment(),
                    Admission.Mode.ALIGNED, it.origin()));
        }
        a.reserveAllAt(placed);
        return a;
    }

    /** The tile count chosen and what it gave. */
    record Chosen(int count, long tileBytes, int tiles) {
    }

    /** {@code ceil(size / count)} rounded up to the through space's effective alignment (checked). */
    static long tileBytes(Space through, String name, long size, int count, long align) {
        long q = size / count + (size % count == 0 ? 0 : 1);
        return Admission.reservedSize(through, name, q, align);
    }

    /** Tiles actually needed to cover {@code size} with tiles of {@code tile} bytes (at least 1). */
    static int tilesNeeded(long size, long tile, int count) {
        if (tile == 0) {
            return 1;
        }
        long n = size / tile + (size % tile == 0 ? 0 : 1);
        return (int) Math.max(1, Math.min(n, count)); // at most count, an int
    }

    /** Reserves {@code min(buffers, count)} tile buffers, or throws with nothing left reserved. */
    static Chosen reserveTiles(SpaceAllocator alloc, BufferSpec b, TileSpec t, int count, long align) {
        long tile = tileBytes(alloc.space(), b.name() + ".tile", b.size(), count, align);
        int depth = Math.min(t.buffers(), count);
        SpaceAllocator.Checkpoint cp = alloc.checkpoint();
        try {
            for (int j = 0; j < depth; j++) {
                alloc.reserve(tileBufferName(b, j), b.live(), tile, align, Origin.TILE);
            }
        } catch (BerthException e) {
            alloc.rollback(cp);
            throw e;
        }
        return new Chosen(count, tile, tilesNeeded(b.size(), tile, count));
    }

    static String tileBufferName(BufferSpec b, int j) {
        return DerivedNames.tileBuffer(b.name(), j);
    }

    /**
     * The fewest tiles whose buffers fit. Counts up to {@code buffers} are tried one by one
     * (the number of tile buffers grows with them); beyond, only the least count of each
     * distinct tile size is tried, since equal sizes place identically.
     */
    private static Chosen search(SpaceAllocator alloc, BufferSpec b, TileSpec t, long align) {
        BerthException last = null;
        long size = b.size();
        long c = 1;
        int tries = 0;
        while (c <= Integer.MAX_VALUE) {
            tries++;
            try {
                return reserveTiles(alloc, b, t, (int) c, align); // c <= Integer.MAX_VALUE (the loop's guard)
            } catch (BerthException e) {
                if (!(e.failure() instanceof Failure.CapacityExceeded) && !(e.failure() instanceof Failure.AddressNotEncodable)) {
                    throw e;
                }
                last = e;
            }
            if (c < t.buffers()) {
                c++;
                continue;
            }
            long tile = tileBytes(alloc.space(), b.name() + ".tile", size, (int) c, align); // as above
            if (tile <= align) {
                break;
            }
            // least c' with alignUp(ceil(size / c'), align) <= tile - align
            long smaller = tile - align;
            long next = size / smaller + (size % smaller == 0 ? 0 : 1);
            c = Math.max(c + 1, next);
        }
        Failure f = last.failure();
        String msg = "buffer " + b.name() + " cannot be tiled through space " + t.through().name() + ": no tile count fits "
                + "(" + tries + " counts tried, down to tiles of " + align + " bytes, " + Math.min(t.buffers(), c)
                + " tile buffers deep) alongside what is live there; the last try: " + f.message();
        if (f instanceof Failure.CapacityExceeded ce) {
            throw new BerthException(new Failure.CapacityExceeded(msg, ce.facts(), Shortfall.UNDIAGNOSED));
        }
        throw new BerthException(new Failure.AddressNotEncodable(msg, f.facts()));
    }

    /** One descriptor per tile: {@code tensor start + tile offset}, through both formats. */
    private static List<DescriptorEntry> descriptors(Target target, BufferSpec b, Placement tensor, Chosen chosen) {
        Space space = tensor.space();
        Generation.Descriptor spec = target.generation().orElseThrow().descriptor().orElseThrow();
        AddressFormat fmt = spec.addressFormat().map(target.formats()::get).orElse(space.format());
        List<DescriptorEntry> out = new ArrayList<>();
        for (int j = 0; j < chosen.tiles; j++) {
            long tileOffset = Checked.multiply(j, chosen.tileBytes);
            long bytes = Math.min(chosen.tileBytes, b.size() - tileOffset);
            long rel = Checked.add(tensor.offset(), tileOffset);
            String name = b.name() + ".tile." + j;
            String what = "descriptor " + name + " (tile " + j + " of " + b.name() + ", " + bytes + " bytes at tile offset "
                    + tileOffset + ")";
            Admission.encodableAt(space.format(), what, space.name(), space.base(), rel, bytes);
            long address = Admission.encodableAt(fmt, what, space.name(), space.base(), rel, bytes);
            out.add(new DescriptorEntry(name, j, b.name(), address, bytes, space.name(), fmt.name()));
        }
        return out;
    }
}
