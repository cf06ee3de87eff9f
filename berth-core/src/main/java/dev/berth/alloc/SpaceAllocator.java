package dev.berth.alloc;

import dev.berth.admit.Admission;
import dev.berth.admit.Placement;
import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.sweep.OverlapSweep;
import dev.berth.target.Space;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A transactional allocator for one space: it places reservations over live step intervals,
 * every one through {@link Admission#admit}, and keeps an undo log so that a
 * {@link Checkpoint} can be rolled back.
 *
 * <p>Invariants (checked by {@link #checkInvariants()} under {@code -ea} and in tests):
 * no two held allocations conflict; {@link #highWater()} is the largest end held; a failed
 * request changes nothing (it throws before the first mutation).
 */
public final class SpaceAllocator {
    private final Space space;
    private final Map<String, Allocation> held = new LinkedHashMap<>();
    private final TreeMap<Long, Integer> ends = new TreeMap<>();
    private final ArrayList<Undo> log = new ArrayList<>();
    private long serials;

    /**
     * A point to roll back to: the undo log's length then, and the serial of its last entry, so
     * that a checkpoint an earlier rollback went past (its position since refilled) is refused.
     */
    public record Checkpoint(int position, long serial) {
    }

    /** The observable state: what tests compare before and after a failed request. */
    public record State(List<Allocation> allocations, long highWater) {
    }

    private record Undo(boolean added, Allocation allocation, long serial) {
    }

    public SpaceAllocator(Space space) {
        this.space = space;
    }

    public Space space() {
        return space;
    }

    /**
     * Places {@code requested} bytes at the lowest aligned offset free of time-overlapping
     * reservations, then admits them there. The limits are checked at that offset only, so a
     * failure reports the limits of the offset the request would really take, in the contract's
     * precedence (input, host arithmetic, format, capacity), never a limit at an occupied offset.
     */
    public Allocation reserve(String name, Lifetime live, long requested, long alignment, Origin origin) {
        requireNewName(name);
        Admission.checkInput(name, 0, requested, alignment);
        long eff = Admission.effectiveAlignment(space, name, requested, alignment);
        long reserved = Admission.reservedSize(space, name, requested, eff);
        long candidate = 0;
        if (reserved > 0) {
            List<Allocation> others = new ArrayList<>();
            for (Allocation a : held.values()) {
                if (a.live().overlaps(live) && a.placement().reserved() > 0) {
                    others.add(a);
                }
            }
            others.sort(Comparator.comparingLong(a -> a.placement().offset()));
            // a start past 2^63-1 saturates; the admission check then rejects it as past the format
            long start = 0;
            for (Allocation a : others) {
                Placement o = a.placement();
                if (o.end() <= start) {
                    continue;
                }
                if (o.offset() >= Checked.saturatingAdd(start, reserved)) {
                    break;
                }
                candidate = Math.max(candidate, o.end());
                start = Checked.saturatingAlignUp(candidate, eff);
            }
        }
        return add(new Allocation(Admission.admit(space, name, candidate, requested, alignment), live, origin));
    }

    /**
     * Places the reservation at {@code candidate} (aligned up in {@link Admission.Mode#ALIGNED}
     * mode, exactly there in {@link Admission.Mode#EXACT} mode). A conflict with a held
     * reservation is {@code invalid-input}; an admission failure of an {@link Origin#FIXED} one
     * names it a fixed region.
     */
    public Allocation reserveAt(String name, Lifetime live, long candidate, long requested, long alignment,
                                Admission.Mode mode, Origin origin) {
        requireNewName(name);
        Placement p = Admission.admit(space, name, candidate, requested, alignment, mode, origin == Origin.FIXED);
        Allocation a = new Allocation(p, live, origin);
        for (Allocation o : held.values()) {
            if (o.conflicts(a)) {
                throw overlap(a, o);
            }
        }
        return add(a);
    }

    /** {@code invalid-input} naming {@code a}, the request that overlaps {@code o}. */
    private BerthException overlap(Allocation a, Allocation o) {
        return BerthException.invalid(a.name(), a.name() + " at [" + a.placement().offset() + ", "
                + a.placement().end() + ") in space " + space.name() + " overlaps " + o.name() + " at ["
                + o.placement().offset() + ", " + o.placement().end() + ") during steps " + a.live() + " and "
                + o.live());
    }

    /** One reservation to place at a given offset, as {@link #reserveAt} takes it, for {@link #reserveAllAt}. */
    public record At(String name, Lifetime live, long candidate, long requested, long alignment, Admission.Mode mode,
                     Origin origin) {
    }

    /**
     * Places every reservation at its offset, with the allocations {@link #reserveAt} would give
     * one after the other, in O(m log m) for the m reservations held and requested, where one
     * {@code reserveAt} each would take O(m^2): a sweep over the steps finds conflicts, among the
     * new reservations and with the held ones. All or nothing: a failure changes nothing. The
     * checks come in this order: every request's name (held already, or requested twice) and
     * admission, in request order, then the conflicts. A conflict is reported as {@code reserveAt}
     * reports one, naming the later request of a real conflicting pair: the first pair in step
     * order, which need not be the pair one {@code reserveAt} after another would meet first.
     */
    public List<Allocation> reserveAllAt(List<At> requests) {
        Map<String, Allocation> fresh = new LinkedHashMap<>();
        for (At r : requests) {
            requireNewName(r.name());
            if (fresh.containsKey(r.name())) {
                throw BerthException.invalid(r.name(), "a reservation named " + r.name() + " is requested twice in space "
                        + space.name());
            }
            Placement p = Admission.admit(space, r.name(), r.candidate(), r.requested(), r.alignment(), r.mode(),
                    r.origin() == Origin.FIXED);
            fresh.put(r.name(), new Allocation(p, r.live(), r.origin()));
        }
        List<Allocation> all = new ArrayList<>(held.size() + fresh.size());
        all.addAll(held.values());
        all.addAll(fresh.values());
        // held first, then the requests in order: of a conflicting pair, the later one is the request reported
        int m = all.size();
        long[] offset = new long[m];
        long[] end = new long[m];
        int[] first = new int[m];
        int[] last = new int[m];
        for (int k = 0; k < m; k++) {
            Allocation a = all.get(k);
            offset[k] = a.placement().offset();
            end[k] = a.placement().end();
            first[k] = a.live().first();
            last[k] = a.live().last();
        }
        int[] conflict = OverlapSweep.firstConflict(offset, end, first, last);
        if (conflict.length > 0) {
            throw overlap(all.get(conflict[1]), all.get(conflict[0]));
        }
        List<Allocation> out = new ArrayList<>(fresh.size());
        for (Allocation a : fresh.values()) {
            out.add(add(a));
        }
        return List.copyOf(out);
    }

    /** Releases a held reservation. */
    public void release(String name) {
        Allocation a = held.get(name);
        if (a == null) {
            throw new IllegalArgumentException("no reservation named " + name + " in space " + space.name());
        }
        remove(a);
        log.add(new Undo(false, a, ++serials));
    }

    public Checkpoint checkpoint() {
        return new Checkpoint(log.size(), log.isEmpty() ? 0 : log.get(log.size() - 1).serial());
    }

    /** Undoes everything done since {@code c}, newest first. */
    public void rollback(Checkpoint c) {
        if (c.position() > log.size() || c.position() > 0 && log.get(c.position() - 1).serial() != c.serial()) {
            throw new IllegalStateException("checkpoint " + c.position() + " is not in this allocator's history (log of "
                    + log.size() + "): it was rolled back past already");
        }
        for (int k = log.size() - 1; k >= c.position(); k--) {
            Undo u = log.remove(k);
            if (u.added()) {
                remove(u.allocation());
            } else {
                insert(u.allocation());
            }
        }
        assert checkInvariants();
    }

    /** The logical high-water mark: the largest {@code offset + reserved} held, 0 when empty. */
    public long highWater() {
        return ends.isEmpty() ? 0 : ends.lastKey();
    }

    /** The held reservations, in the order they were made. */
    public List<Allocation> allocations() {
        return List.copyOf(held.values());
    }

    public State state() {
        List<Allocation> all = new ArrayList<>(held.values());
        all.sort(Comparator.comparing(Allocation::name));
        return new State(List.copyOf(all), highWater());
    }

    /** Checks the invariants; returns true so it can sit in an {@code assert}. */
    public boolean checkInvariants() {
        List<Allocation> all = new ArrayList<>(held.values());
        long max = 0;
        for (int a = 0; a < all.size(); a++) {
            max = Math.max(max, all.get(a).placement().end());
            for (int b = a + 1; b < all.size(); b++) {
                if (all.get(a).conflicts(all.get(b))) {
                    throw new IllegalStateException(all.get(a) + " conflicts with " + all.get(b));
                }
            }
        }
        if (max != highWater()) {
            throw new IllegalStateException("high-water " + highWater() + " but largest end " + max);
        }
        return true;
    }

    private void requireNewName(String name) {
        if (held.containsKey(name)) {
            throw BerthException.invalid(name, "a reservation named " + name + " is already held in space " + space.name());
        }
    }

    private Allocation add(Allocation a) {
        insert(a);
        log.add(new Undo(true, a, ++serials));
        return a;
    }

    private void insert(Allocation a) {
        held.put(a.name(), a);
        ends.merge(a.placement().end(), 1, Integer::sum);
    }

    private void remove(Allocation a) {
        held.remove(a.name());
        long end = a.placement().end();
        int n = ends.get(end);
        if (n == 1) {
            ends.remove(end);
        } else {
            ends.put(end, n - 1);
        }
    }
}
