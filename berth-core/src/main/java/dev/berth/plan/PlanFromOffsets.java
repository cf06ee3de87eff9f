package dev.berth.plan;

import dev.berth.admit.Admission;
import dev.berth.admit.Placement;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.solve.LiveBytes;
import dev.berth.solve.SpaceProblem;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Origin;
import dev.berth.workload.Workload;
import dev.berth.workload.WorkloadCheck;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans of a single-space workload (a MiniMalloc CSV) from offsets a solver computed outside
 * the {@link Planner}: the compact problem to solve, and the validated plan of its solution.
 * Used where the caller drives the solver itself (minimisation, benchmarks). Every offset passes
 * the admission check and the whole plan the {@link PlanValidator}, as in {@link Planner}.
 */
public final class PlanFromOffsets {
    private PlanFromOffsets() {
    }

    /**
     * The problem of {@code space}: its fixed regions, then its buffers, in input order, with
     * reserved sizes from the admission check's arithmetic and the space's limit. The workload
     * must put nothing in another space and have no tiles.
     */
    public static SpaceProblem problem(Target target, Workload workload, String space) {
        return Planner.problem(target.space(space, "space"), items(target, workload, space));
    }

    /**
     * The validated plan that puts item i of {@link #problem} at {@code offsets[i]}; throws the
     * admission check's failure when an offset breaks a limit, and {@link InvalidPlanException}
     * when the validator rejects the plan.
     */
    public static PlanResult plan(Target target, Workload workload, String space, long[] offsets, String solver) {
        List<Item> items = items(target, workload, space);
        if (offsets.length != items.size()) {
            throw new IllegalArgumentException(offsets.length + " offsets for " + items.size() + " items");
        }
        Space s = target.space(space, "space");
        int n = items.size();
        Map<String, PlannedBuffer> byName = new LinkedHashMap<>();
        int[] first = new int[n];
        int[] last = new int[n];
        long[] reserved = new long[n];
        long high = 0;
        for (int i = 0; i < n; i++) {
            Item it = items.get(i);
            Placement p = it.fixedOffset() >= 0
                    ? Admission.admit(s, it.name(), it.fixedOffset(), it.requested(), 1, Admission.Mode.EXACT)
                    : Admission.admit(s, it.name(), offsets[i], it.requested(), it.alignment());
            if (p.offset() != offsets[i]) {
                throw new IllegalArgumentException(it.name() + " at " + offsets[i] + " is not aligned (admitted at "
                        + p.offset() + ")");
            }
            byName.put(it.name(), it.planned(p));
            first[i] = it.live().first();
            last[i] = it.live().last();
            reserved[i] = p.reserved();
            high = Math.max(high, p.end());
        }
        LiveBytes.Peak peak = LiveBytes.peak(first, last, reserved);
        Map<String, SpaceMetrics> metrics = new LinkedHashMap<>();
        for (Space sp : target.spaces().values()) {
            metrics.put(sp.name(), sp.name().equals(space)
                    ? new SpaceMetrics(s.kind(), s.capacity(), high, peak.bytes(), peak.step(), 0, s.runtimeReserve())
                    : new SpaceMetrics(sp.kind(), sp.capacity(), 0, 0, -1, 0, sp.runtimeReserve()));
        }
        List<PlannedBuffer> buffers = new ArrayList<>();
        for (BufferSpec b : workload.buffers()) {
            buffers.add(byName.get(b.name()));
        }
        for (FixedRegion f : workload.fixed()) {
            buffers.add(byName.get(f.name()));
        }
        Plan plan = new Plan(target, workload.name(), solver, metrics, buffers, List.of());
        Verdict v = PlanValidator.validate(plan);
        if (v instanceof Verdict.Invalid bad) {
            throw new InvalidPlanException(bad);
        }
        return new PlanResult(plan, Map.of(space, solver), (Verdict.Valid) v);
    }

    private static List<Item> items(Target target, Workload w, String space) {
        WorkloadCheck.check(target, w);
        if (target.generation().isPresent()) {
            throw new IllegalArgumentException("target " + target.name() + " generates code; plan it with the Planner");
        }
        List<Item> items = new ArrayList<>();
        for (FixedRegion f : w.fixed()) {
            requireSpace(f.space().name(), space, f.name());
            items.add(new Item(f.name(), f.size(), 1, f.live(), Origin.FIXED, Optional.empty(), f.offset()));
        }
        for (BufferSpec b : w.buffers()) {
            requireSpace(b.space().name(), space, b.name());
            if (b.tile().isPresent()) {
                throw new IllegalArgumentException(b.name() + " is tiled; plan it with the Planner");
            }
            items.add(new Item(b.name(), b.size(), b.alignment(), b.live(), Origin.TENSOR, Optional.empty(), -1));
        }
        return items;
    }

    private static void requireSpace(String actual, String space, String name) {
        if (!actual.equals(space)) {
            throw new IllegalArgumentException(name + " is in space " + actual + ", not " + space);
        }
    }
}
