package dev.berth.plan;

import dev.berth.admit.Placement;
import dev.berth.target.Space;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * What the planner holds for one space: its items in the order they were gathered and, once
 * admitted, each item's placement at the same index. Items admitted after the solver (tile
 * buffers, generation) are added with their placement, so the two lists stay aligned.
 */
final class SpaceState {
    final Space space;
    private final List<Item> items = new ArrayList<>();
    private final List<Placement> placed = new ArrayList<>();

    SpaceState(Space space) {
        this.space = space;
    }

    /** An item to be solved and admitted; only before anything is placed. */
    void gather(Item item) {
        assert placed.isEmpty() : "items are gathered before placements";
        items.add(item);
    }

    /** The solver's placements, admitted, one per gathered item. */
    void admitted(List<Placement> ps) {
        assert placed.isEmpty() && ps.size() == items.size() : "one placement per item, once";
        placed.addAll(ps);
    }

    /** A reservation admitted after the solver: an item and its placement together. */
    void add(Placement p, Lifetime live, Origin origin, Optional<String> of) {
        assert placed.size() == items.size() : "added only after the solver's placements";
        items.add(new Item(p.buffer(), p.requested(), p.alignment(), live, origin, of, -1));
        placed.add(p);
    }

    List<Item> items() {
        return Collections.unmodifiableList(items);
    }

    List<Placement> placed() {
        return Collections.unmodifiableList(placed);
    }

    /** The highest end offset of what is placed (0 when nothing is). */
    long top() {
        long top = 0;
        for (Placement p : placed) {
            top = Math.max(top, p.end());
        }
        return top;
    }
}
