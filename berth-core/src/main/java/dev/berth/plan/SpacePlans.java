package dev.berth.plan;

import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The plan of every space of the target, in the target's order; each phase works through them. */
final class SpacePlans implements Iterable<SpacePlan> {
    private final Map<String, SpacePlan> plans;

    private SpacePlans(Map<String, SpacePlan> plans) {
        this.plans = Collections.unmodifiableMap(plans);
    }

    /**
     * Gathers each space's items, fixed regions first, then buffers, each in input order, and then,
     * space by space in the target's order, their reserved sizes: host arithmetic for every item
     * before any search, since it outranks format and capacity (contract §1).
     */
    static SpacePlans gather(Target target, Workload w) {
        Map<String, ArrayList<Item>> items = new LinkedHashMap<>();
        for (Space s : target.spaces().values()) {
            items.put(s.name(), new ArrayList<>());
        }
        List<FixedRegion> fixed = w.fixed();
        for (int i = 0; i < fixed.size(); i++) {
            items.get(fixed.get(i).space().name()).add(Item.of(fixed.get(i), i));
        }
        List<BufferSpec> buffers = w.buffers();
        for (int i = 0; i < buffers.size(); i++) {
            items.get(buffers.get(i).space().name()).add(Item.of(buffers.get(i), i));
        }
        Map<String, SpacePlan> plans = new LinkedHashMap<>();
        for (Space s : target.spaces().values()) {
            plans.put(s.name(), new SpacePlan(s, items.get(s.name())));
        }
        return new SpacePlans(plans);
    }

    /** The plan of {@code space}, one of the target's. */
    SpacePlan of(Space space) {
        return of(space.name());
    }

    /** The plan of the target's space named {@code space}. */
    SpacePlan of(String space) {
        SpacePlan p = plans.get(space);
        if (p == null) {
            throw new IllegalStateException("no space " + space + " in the plan");
        }
        return p;
    }

    @Override
    public Iterator<SpacePlan> iterator() {
        return plans.values().iterator();
    }
}
