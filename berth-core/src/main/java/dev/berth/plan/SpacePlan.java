package dev.berth.plan;

import dev.berth.admit.Admission;
import dev.berth.admit.Placement;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.measure.SpaceAssembler;
import dev.berth.solve.SpaceProblem;
import dev.berth.target.Space;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * One space's plan as the planner's phases build it: its items (gathered: fixed regions, then
 * buffers, each in input order) and the compact problem of their reserved sizes; the outcome of
 * its search; each item's placement, at the item's index, once admitted; the reservations
 * derived after the solver (tile buffers, generation-time allocations), each added with its
 * placement so that items and placements stay aligned; and, from all of these, its artifact
 * entries and metrics ({@link #assemble}).
 */
final class SpacePlan {
    private final Space space;
    private final List<Item> items;
    private final SpaceProblem problem;
    private final List<Placement> placed = new ArrayList<>();
    private Optional<SpaceOutcome> outcome = Optional.empty();

    /**
     * The space's gathered items and their problem, its reserved sizes by the admission check's
     * arithmetic; the list is the plan's from here on ({@link SpacePlans#gather} hands it over).
     */
    SpacePlan(Space space, ArrayList<Item> gathered) {
        this.space = space;
        this.items = gathered;
        this.problem = problem(space, gathered);
    }

    /** The space's entries in the artifact, in item order, and its metrics. */
    record Assembled(List<PlannedBuffer> entries, SpaceMetrics metrics) {
    }

    Space space() {
        return space;
    }

    List<Item> items() {
        return Collections.unmodifiableList(items);
    }

    SpaceProblem problem() {
        return problem;
    }

    /** What the search gave; only after {@link #searched}. */
    SpaceOutcome outcome() {
        return outcome.orElseThrow(() -> new IllegalStateException("space " + space.name() + " is not searched yet"));
    }

    /** The search's outcome, once. */
    void searched(SpaceOutcome o) {
        if (outcome.isPresent()) {
            throw new IllegalStateException("space " + space.name() + " is searched once");
        }
        outcome = Optional.of(o);
    }

    /** The solver's placements, admitted, one per gathered item, once. */
    void admitted(List<Placement> ps) {
        if (!placed.isEmpty() || ps.size() != items.size()) {
            throw new IllegalStateException("space " + space.name() + ": one placement per gathered item, once");
        }
        placed.addAll(ps);
    }

    /** A reservation admitted after the solver: an item and its placement together. */
    void add(Placement p, Lifetime live, Origin origin, Optional<String> of) {
        if (placed.size() != items.size()) {
            throw new IllegalStateException("space " + space.name() + ": reservations are added after the solver's");
        }
        items.add(Item.derived(p, live, origin, of));
        placed.add(p);
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

    /**
     * The artifact entries of every item, in item order (each shared pair's output naming its input,
     * {@link SharedOffsets#mark}), and the metrics the one assembler gives them ({@link SpaceAssembler}).
     */
    Assembled assemble(SharedOffsets shared) {
        List<PlannedBuffer> planned = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            planned.add(items.get(i).planned(placed.get(i)));
        }
        List<PlannedBuffer> in = shared.mark(planned);
        return new Assembled(in, SpaceAssembler.metrics(space, in, Optional.of(known(outcome()))));
    }

    /**
     * What the search proved about the height of the placed reservations: its static bound and the
     * lower end it proved, and why the bracket stays open if the two do not reach the space's
     * high-water mark (tile buffers above a proved placement, else the search's reason).
     */
    private static SpaceAssembler.Known known(SpaceOutcome o) {
        Optimality.Open why = o.provedLower() >= o.height() ? Optimality.Open.TILES
                : o.open().orElse(Optimality.Open.WORK_BUDGET);
        return new SpaceAssembler.Known(o.solver(), o.lowerBound(), o.provedLower(), why, o.timeLimited());
    }

    /** The compact problem of one space's items; reserved sizes through the admission check's own arithmetic. */
    static SpaceProblem problem(Space s, List<Item> items) {
        int n = items.size();
        String[] names = new String[n];
        long[] reserved = new long[n];
        long[] align = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        long[] fixed = new long[n];
        for (int i = 0; i < n; i++) {
            Item it = items.get(i);
            names[i] = it.name();
            first[i] = it.live().first();
            last[i] = it.live().last();
            fixed[i] = it.fixedOffset();
            if (it.fixedOffset() >= 0) {
                align[i] = 1;
                reserved[i] = it.requested();
            } else {
                align[i] = Admission.effectiveAlignment(s, it.name(), it.requested(), it.alignment());
                reserved[i] = Admission.reservedSize(s, it.name(), it.requested(), align[i]);
            }
        }
        return new SpaceProblem(s, names, reserved, align, first, last, fixed, Admission.limit(s));
    }
}
