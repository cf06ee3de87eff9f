package dev.berth.plan;

import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import dev.berth.solve.Budget;
import dev.berth.solve.SpaceProblem;
import dev.berth.sweep.LiveBytes;
import dev.berth.solve.Outcome;
import dev.berth.solve.exact.ExactSolver;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every solver on seeded random workloads (mixed alignments, non-powers of two included,
 * fixed regions, a finite local space): either a plan the validator accepts, or a typed
 * failure that is right, cross-checked on the local space with the exact solver.
 */
class PlannerRandomTest {
    private static final long SEED = 0xB3E7_2026L;
    private static final int WORKLOADS = 1200;
    private static final long[] ALIGNS = {1, 1, 2, 3, 4, 6, 8, 10, 12, 16, 24, 64};

    @Test
    void everySolverGivesAValidPlanOrARightFailure() {
        Random rnd = new Random(SEED);
        int plans = 0;
        int capacityFailures = 0;
        int provable = 0;
        int checkedAgainstExact = 0;
        for (int w = 0; w < WORKLOADS; w++) {
            long capacity = 64 + rnd.nextInt(400);
            Target t = Targets.two(new AddressFormat("g", (1L << 40) - 1, EndConvention.EXCLUSIVE), ALIGNS[rnd.nextInt(4)],
                    new AddressFormat("l", 4095, rnd.nextBoolean() ? EndConvention.EXCLUSIVE : EndConvention.LAST_BYTE),
                    ALIGNS[rnd.nextInt(6)], capacity, Optional.empty());
            Workload wl = randomWorkload(rnd, t, 3 + rnd.nextInt(9), capacity);
            for (SolverChoice choice : SolverChoice.values()) {
                try {
                    PlanResult r = Planner.plan(t, wl, new Planner.Options(choice, 5));
                    assertThat(PlanValidator.validate(r.plan()).valid()).isTrue();
                    assertThat(r.plan().buffers()).hasSize(wl.buffers().size() + wl.fixed().size());
                    for (PlannedBuffer b : r.plan().buffers()) {
                        assertThat(b.reserved()).isGreaterThanOrEqualTo(b.requested());
                    }
                    plans++;
                } catch (BerthException e) {
                    assertThat(e.category()).as("seed %d workload %d solver %s: %s", SEED, w, choice, e.getMessage())
                            .isEqualTo(Category.CAPACITY_EXCEEDED);
                    Failure.CapacityExceeded ce = (Failure.CapacityExceeded) e.failure();
                    capacityFailures++;
                    Space local = t.spaces().get("local");
                    var problem = SpacePlan.problem(local, items(wl, "local"));
                    long peak = LiveBytes.peak(firsts(problem), lasts(problem), reserveds(problem)).bytes();
                    assertThat(ce.provablyInfeasible()).isEqualTo(peak > capacity);
                    if (ce.provablyInfeasible()) {
                        provable++;
                        assertThat(ce.step()).isPresent();
                    }
                    if (choice == SolverChoice.EXACT || choice == SolverChoice.AUTO) {
                        // a complete search failed: the exact solver, run again, must not find a placement
                        Outcome o = new ExactSolver().solve(problem, Budget.seconds(5));
                        assertThat(o).isNotInstanceOf(Outcome.Solved.class);
                        checkedAgainstExact++;
                    }
                }
            }
        }
        System.out.printf("random planner campaign: seed %d, %d workloads x %d solvers: %d valid plans, %d capacity "
                        + "failures (%d provable), %d confirmed by a second exact search%n", SEED, WORKLOADS,
                SolverChoice.values().length, plans, capacityFailures, provable, checkedAgainstExact);
        assertThat(plans).isGreaterThan(WORKLOADS);
        assertThat(capacityFailures).isGreaterThan(0);
    }

    @Test
    void autoFindsAPlacementWheneverTheExactSolverDoes() {
        Random rnd = new Random(SEED + 1);
        int rescued = 0;
        for (int w = 0; w < 400; w++) {
            long capacity = 40 + rnd.nextInt(100);
            Target t = Targets.two(new AddressFormat("g", (1L << 40) - 1, EndConvention.EXCLUSIVE), 1,
                    new AddressFormat("l", 4095, EndConvention.EXCLUSIVE), 1, capacity, Optional.empty());
            Workload wl = randomWorkload(rnd, t, 4 + rnd.nextInt(6), capacity);
            var problem = SpacePlan.problem(t.spaces().get("local"), items(wl, "local"));
            Outcome exact = new ExactSolver().solve(problem, Budget.seconds(5));
            boolean heuristicFits;
            try {
                Planner.plan(t, wl, new Planner.Options(SolverChoice.BEST_FIT, 5));
                heuristicFits = true;
            } catch (BerthException e) {
                heuristicFits = false;
            }
            if (exact instanceof Outcome.Solved) {
                PlanResult r = Planner.plan(t, wl, new Planner.Options(SolverChoice.AUTO, 5));
                assertThat(PlanValidator.validate(r.plan()).valid()).isTrue();
                if (!heuristicFits) {
                    rescued++;
                    assertThat(r.solverBySpace().get("local")).isIn(SolverKind.GREEDY, SolverKind.SKYLINE, SolverKind.EXACT);
                }
            } else {
                assertThat(exact).isInstanceOf(Outcome.Infeasible.class);
                assertThat(heuristicFits).as("heuristic fit where exact proved infeasible, workload %d", w).isFalse();
            }
        }
        System.out.println("auto rescued " + rescued + " of 400 workloads where best-fit alone failed");
    }

    static Workload randomWorkload(Random rnd, Target t, int n, long capacity) {
        List<BufferSpec> bs = new ArrayList<>();
        int steps = 2 + rnd.nextInt(8);
        for (int i = 0; i < n; i++) {
            int f = rnd.nextInt(steps);
            int l = f + rnd.nextInt(steps - f);
            boolean local = rnd.nextInt(3) > 0;
            long size = rnd.nextInt(5) == 0 ? 0 : 1 + rnd.nextInt((int) Math.max(1, capacity / 3));
            bs.add(new BufferSpec("b" + i, size, t.space(local ? "local" : "global", "test"),
                    ALIGNS[rnd.nextInt(ALIGNS.length)], new Lifetime(f, l), Optional.empty()));
        }
        List<FixedRegion> fx = new ArrayList<>();
        if (rnd.nextInt(3) == 0) {
            fx.add(new FixedRegion("fx", t.space("local", "test"), rnd.nextInt((int) capacity / 2), 1 + rnd.nextInt(10),
                    new Lifetime(0, steps - 1)));
        }
        return new Workload("random", bs, fx);
    }

    static List<Item> items(Workload w, String space) {
        List<Item> out = new ArrayList<>();
        for (int i = 0; i < w.fixed().size(); i++) {
            if (w.fixed().get(i).space().name().equals(space)) {
                out.add(Item.of(w.fixed().get(i), i));
            }
        }
        for (int i = 0; i < w.buffers().size(); i++) {
            if (w.buffers().get(i).space().name().equals(space)) {
                out.add(Item.of(w.buffers().get(i), i));
            }
        }
        return out;
    }

    static int[] firsts(SpaceProblem p) {
        int[] a = new int[p.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = p.first(i);
        }
        return a;
    }

    static int[] lasts(SpaceProblem p) {
        int[] a = new int[p.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = p.last(i);
        }
        return a;
    }

    static long[] reserveds(SpaceProblem p) {
        long[] a = new long[p.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = p.reserved(i);
        }
        return a;
    }
}
