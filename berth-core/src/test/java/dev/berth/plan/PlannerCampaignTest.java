package dev.berth.plan;

import dev.berth.solve.SolverChoice;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import dev.berth.sweep.LiveBytes;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Campaign (run with {@code -Pcampaigns}): {@code berth.campaign.workloads} (default 10^4)
 * random workloads, each through every solver ({@link SolverChoice}), each plan re-checked by
 * the validator. Workload {@code i} is made from its own seed {@code seed + i}, so one failing
 * workload replays alone: {@code -Dberth.campaign.seed=S -Dberth.campaign.only=I}. Checks per
 * workload: a plan is valid and holds every buffer and fixed region; a failure is
 * {@code capacity-exceeded} with {@code provablyInfeasible} exactly when the reserved bytes live
 * at a step exceed the capacity; when a heuristic finds a placement, {@code exact} and
 * {@code auto} do too; {@code auto}'s high-water mark in each space is at most the lower of
 * best fit's and greedy's.
 */
@Tag("campaign")
class PlannerCampaignTest {
    private static final long[] ALIGNS = {1, 1, 2, 3, 4, 6, 8, 10, 12, 16, 24, 64};

    @Test
    void everySolverOnRandomWorkloadsAgainstTheValidator() {
        long seed = Long.getLong("berth.campaign.seed", System.nanoTime());
        int workloads = Integer.getInteger("berth.campaign.workloads", 10_000);
        int only = Integer.getInteger("berth.campaign.only", -1);
        System.out.printf("planner campaign: seed %d (replay: -Dberth.campaign.seed=%d), %d workloads x %d solvers%n",
                seed, seed, workloads, SolverChoice.values().length);
        Map<SolverChoice, Integer> plans = new EnumMap<>(SolverChoice.class);
        Map<SolverChoice, Integer> failures = new EnumMap<>(SolverChoice.class);
        int provable = 0;
        long checks = 0;
        for (int w = 0; w < workloads; w++) {
            if (only >= 0 && w != only) {
                continue;
            }
            Random rnd = new Random(seed + w);
            long capacity = 64 + rnd.nextInt(400);
            Target t = Targets.two(new AddressFormat("g", (1L << 40) - 1, EndConvention.EXCLUSIVE), ALIGNS[rnd.nextInt(4)],
                    new AddressFormat("l", 4095, rnd.nextBoolean() ? EndConvention.EXCLUSIVE : EndConvention.LAST_BYTE),
                    ALIGNS[rnd.nextInt(6)], capacity, Optional.empty());
            Workload wl = PlannerRandomTest.randomWorkload(rnd, t, 3 + rnd.nextInt(12), capacity);
            String replay = "seed " + seed + " workload " + w + " (-Dberth.campaign.seed=" + seed
                    + " -Dberth.campaign.only=" + w + ")";
            Map<SolverChoice, Plan> result = new EnumMap<>(SolverChoice.class);
            for (SolverChoice choice : SolverChoice.values()) {
                try {
                    Plan p = Planner.plan(t, wl, new Planner.Options(choice, 10)).plan();
                    Verdict v = PlanValidator.validate(p);
                    assertThat(v.valid()).as("%s, solver %s: %s", replay, choice, v).isTrue();
                    checks += ((Verdict.Valid) v).checks();
                    assertThat(p.buffers()).as(replay).hasSize(wl.buffers().size() + wl.fixed().size());
                    for (PlannedBuffer b : p.buffers()) {
                        assertThat(b.reserved()).as(replay).isGreaterThanOrEqualTo(b.requested());
                    }
                    result.put(choice, p);
                    plans.merge(choice, 1, Integer::sum);
                } catch (BerthException e) {
                    assertThat(e.category()).as("%s, solver %s: %s", replay, choice, e.getMessage())
                            .isEqualTo(Category.CAPACITY_EXCEEDED);
                    Failure.CapacityExceeded ce = (Failure.CapacityExceeded) e.failure();
                    var problem = SpacePlan.problem(t.spaces().get("local"), PlannerRandomTest.items(wl, "local"));
                    long peak = LiveBytes.peak(PlannerRandomTest.firsts(problem), PlannerRandomTest.lasts(problem),
                            PlannerRandomTest.reserveds(problem)).bytes();
                    assertThat(ce.provablyInfeasible()).as(replay).isEqualTo(peak > capacity);
                    if (ce.provablyInfeasible()) {
                        provable++;
                    }
                    failures.merge(choice, 1, Integer::sum);
                }
            }
            boolean heuristicFits = result.containsKey(SolverChoice.GREEDY) || result.containsKey(SolverChoice.BEST_FIT);
            if (heuristicFits) {
                assertThat(result).as("%s: a heuristic placed it, so the complete searches must", replay)
                        .containsKeys(SolverChoice.EXACT, SolverChoice.AUTO);
            }
            if (result.containsKey(SolverChoice.AUTO) && result.containsKey(SolverChoice.GREEDY)
                    && result.containsKey(SolverChoice.BEST_FIT)) {
                for (String space : t.spaces().keySet()) {
                    long auto = high(result.get(SolverChoice.AUTO), space);
                    long best = Math.min(high(result.get(SolverChoice.GREEDY), space),
                            high(result.get(SolverChoice.BEST_FIT), space));
                    assertThat(auto).as("%s: auto's high-water in %s", replay, space).isLessThanOrEqualTo(best);
                }
            }
        }
        System.out.printf("planner campaign: seed %d: %d workloads, plans %s, capacity failures %s (%d provably "
                        + "infeasible), %d validator checks, 0 failures%n", seed, only >= 0 ? 1 : workloads, plans,
                failures, provable, checks);
    }

    private static long high(Plan p, String space) {
        SpaceMetrics m = p.spaces().get(space);
        return m.highWater();
    }
}
