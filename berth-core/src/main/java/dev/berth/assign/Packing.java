package dev.berth.assign;

import dev.berth.admit.Admission;
import dev.berth.alloc.Allocation;
import dev.berth.alloc.SpaceAllocator;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.target.Space;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Origin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The real placement behind every choice: one {@link SpaceAllocator} per space with a capacity,
 * holding its fixed regions and the buffers put there, in the model's placement order, each at
 * the lowest free offset (so the state depends only on which buffers are there). Every try goes
 * through the allocator and so through the admission check; a try that does not fit is rolled
 * back to the allocator's checkpoint and leaves no trace.
 *
 * <p>{@link #append} places a buffer after everything held (the branch and bound decides
 * buffers in the placement order); {@link #insert} and {@link #remove} take the buffers after
 * it out and place them again, which keeps the order whatever order the choices come in.
 */
final class Packing {
    private final Model model;
    private final SpaceAllocator[] allocators;
    /** Per limited space, the ranks of the buffers held, ascending. */
    private final List<List<Integer>> held = new ArrayList<>();
    private long work;
    private final boolean fixedFit;

    /** A point to roll every space back to. */
    record Mark(SpaceAllocator.Checkpoint[] checkpoints, List<List<Integer>> held) {
    }

    Packing(Model model) {
        this.model = model;
        allocators = new SpaceAllocator[model.limited.size()];
        boolean fit = true;
        for (int s = 0; s < allocators.length; s++) {
            allocators[s] = new SpaceAllocator(model.limited.get(s));
            held.add(new ArrayList<>());
            for (FixedRegion f : model.fixed.get(s)) {
                try {
                    allocators[s].reserveAt(f.name(), f.live(), f.offset(), f.size(), 1, Admission.Mode.EXACT,
                            Origin.FIXED);
                } catch (BerthException e) {
                    if (!doesNotFit(e)) {
                        throw e;
                    }
                    fit = false;
                }
            }
        }
        fixedFit = fit;
    }

    /** False when the fixed regions alone do not fit their spaces (the planner then says why). */
    boolean fixedFit() {
        return fixedFit;
    }

    /**
     * The assignment's measure of work: for every reservation tried (failed ones included), one
     * plus the buffers its space held then, which the allocator looks at.
     */
    long work() {
        return work;
    }

    Mark mark() {
        SpaceAllocator.Checkpoint[] cps = new SpaceAllocator.Checkpoint[allocators.length];
        List<List<Integer>> copy = new ArrayList<>();
        for (int s = 0; s < allocators.length; s++) {
            cps[s] = allocators[s].checkpoint();
            copy.add(List.copyOf(held.get(s)));
        }
        return new Mark(cps, copy);
    }

    void rollback(Mark m) {
        for (int s = 0; s < allocators.length; s++) {
            allocators[s].rollback(m.checkpoints()[s]);
            held.get(s).clear();
            held.get(s).addAll(m.held().get(s));
        }
    }

    /**
     * Places the buffer of {@code rank} in candidate {@code cand} (a space with a capacity) after
     * everything held there, whose ranks are lower; false, with nothing changed, if it does not fit.
     */
    boolean append(int rank, int cand) {
        int s = model.entries[rank].limited()[cand];
        List<Integer> h = held.get(s);
        assert h.isEmpty() || h.get(h.size() - 1) < rank : "appended in the placement order";
        SpaceAllocator.Checkpoint cp = allocators[s].checkpoint();
        if (!reserve(s, rank)) {
            allocators[s].rollback(cp);
            return false;
        }
        h.add(rank);
        return true;
    }

    /**
     * Puts the buffer of {@code rank} in candidate {@code cand} at its place in the order: the
     * buffers after it are taken out and placed again after it. False, with nothing changed, if
     * any of them (or it) does not fit.
     */
    boolean insert(int rank, int cand) {
        int s = model.entries[rank].limited()[cand];
        List<Integer> h = held.get(s);
        int pos = position(h, rank);
        List<Integer> next = new ArrayList<>(h.subList(0, pos));
        next.add(rank);
        next.addAll(h.subList(pos, h.size()));
        return replace(s, pos, next);
    }

    /** Takes the buffer of {@code rank} out of candidate {@code cand}; false, with nothing changed, if the buffers after it no longer fit. */
    boolean remove(int rank, int cand) {
        int s = model.entries[rank].limited()[cand];
        List<Integer> h = held.get(s);
        int pos = h.indexOf(rank);
        assert pos >= 0 : "removes only what it holds";
        List<Integer> next = new ArrayList<>(h);
        next.remove(pos);
        return replace(s, pos, next);
    }

    /**
     * Space {@code s} holding {@code next} (equal to what it holds below {@code pos}), or unchanged
     * and false. Only what can move is taken out and placed again: going through the buffers
     * from {@code pos} in order, each one live at a step with the buffer inserted or removed, or
     * with one already taken out, is taken out (a buffer's lowest free offset depends only on the
     * buffers before it live with it, so the others keep their offsets); those are then placed
     * again in order, every other buffer staying where it is.
     */
    private boolean replace(int s, int pos, List<Integer> next) {
        List<Integer> h = held.get(s);
        SpaceAllocator a = allocators[s];
        SpaceAllocator.Checkpoint cp = a.checkpoint();
        Steps moved = new Steps();
        // the buffer inserted or removed: the one of next and h that the other lacks at pos
        int changed = next.size() > h.size() ? next.get(pos) : h.get(pos);
        moved.add(model.entries[changed].spec().live());
        List<Integer> again = new ArrayList<>();
        for (int k = pos; k < next.size(); k++) {
            int r = next.get(k);
            if (r == changed || moved.overlaps(model.entries[r].spec().live())) {
                again.add(r);
                moved.add(model.entries[r].spec().live());
            }
        }
        for (int k = again.size() - 1; k >= 0; k--) {
            if (again.get(k) != changed) {
                a.release(model.entries[again.get(k)].name());
            }
        }
        if (next.size() < h.size()) {
            a.release(model.entries[changed].name());
        }
        for (int r : again) {
            if (!reserve(s, r)) {
                a.rollback(cp);
                return false;
            }
        }
        h.clear();
        h.addAll(next);
        return true;
    }

    private boolean reserve(int s, int rank) {
        BufferSpec b = model.entries[rank].spec();
        // the allocator looks at every reservation it holds
        work += 1 + held.get(s).size();
        try {
            allocators[s].reserve(b.name(), b.live(), b.size(), b.alignment(), Origin.TENSOR);
            return true;
        } catch (BerthException e) {
            if (!doesNotFit(e)) {
                throw e;
            }
            return false;
        }
    }

    private static boolean doesNotFit(BerthException e) {
        return e.category() == Category.CAPACITY_EXCEEDED || e.category() == Category.ADDRESS_NOT_ENCODABLE;
    }

    private static int position(List<Integer> h, int rank) {
        int lo = 0;
        int hi = h.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (h.get(mid) < rank) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The ranks held in limited space {@code s}, ascending. */
    List<Integer> held(int s) {
        return List.copyOf(held.get(s));
    }

    /** The offsets of everything held in limited space {@code s}, by name. */
    Map<String, Long> offsets(int s) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Allocation a : allocators[s].allocations()) {
            m.put(a.name(), a.placement().offset());
        }
        return m;
    }

    /** What each allocator holds: what tests compare before and after a failed try. */
    List<SpaceAllocator.State> states() {
        List<SpaceAllocator.State> out = new ArrayList<>();
        for (SpaceAllocator a : allocators) {
            out.add(a.state());
        }
        return out;
    }

    /** The allocations held in limited space {@code s}. */
    List<Allocation> allocations(int s) {
        return allocators[s].allocations();
    }

    Space space(int s) {
        return model.limited.get(s);
    }
}
