package dev.berth.solve.exact;

import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;
import dev.berth.solve.heuristic.HeuristicSolver;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The minimiser against a brute force on small random problems (mixed alignments, zero sizes,
 * fixed items, twins): with enough work its height is the brute force's smallest one and is
 * proved; with little work its bracket still holds the optimum; without a placement within the
 * limit it finds one by search, or proves there is none. Every placement is checked by
 * {@link PlacementCheck}. The same problem, start and work give the same result again.
 */
class MinimizerBruteForceTest {
    private static final int PROBLEMS = 200;

    /** The better of best fit and greedy, as the planner starts (empty when its fixed items overlap). */
    private static Optional<Outcome.Solved> heuristicStart(SpaceProblem p) {
        Outcome.Solved bf = (Outcome.Solved) HeuristicSolver.bestFit().solve(p, Budget.unlimited());
        Outcome.Solved gr = (Outcome.Solved) HeuristicSolver.greedyBySize().solve(p, Budget.unlimited());
        Outcome.Solved best = gr.height() < bf.height() ? gr : bf;
        return Minimizer.fixedIntact(p, best.offsets()) ? Optional.of(best) : Optional.empty();
    }

    /** A problem whose limit leaves room above the peak, so that there is something to minimise. */
    private static SpaceProblem roomy(SpaceProblem p, SplittableRandom rnd) {
        return p.withLimit(p.limit() + rnd.nextInt(12));
    }

    static Stream<Function<SplittableRandom, SpaceProblem>> families() {
        return Stream.of(RandomProblems::small, RandomProblems::medium, RandomProblems::twins);
    }

    @TestFactory
    Stream<DynamicTest> withEnoughWorkTheHeightIsTheBruteForceOptimumAndProved() {
        String[] names = {"small", "medium", "twins"};
        int[] k = {0};
        return families().map(family -> DynamicTest.dynamicTest(names[k[0]++], () -> {
            SplittableRandom rnd = new SplittableRandom(20261201 + k[0]);
            int minimised = 0;
            int belowStart = 0;
            int infeasible = 0;
            for (int t = 0; t < PROBLEMS; t++) {
                SpaceProblem p = roomy(family.apply(rnd), rnd);
                long opt = BruteForce.optimum(p);
                String what = "problem " + t + ": " + RandomProblems.describe(p);
                Optional<Outcome.Solved> start = rnd.nextInt(4) == 0 ? Optional.empty() : heuristicStart(p);
                Minimizer.Result r = Minimizer.minimize(p, start, p.lowerBound(), Minimizer.Work.unbounded(),
                        ExactSolver.Settings.defaults().searchOnly(), Budget.unlimited(), s -> { });
                if (opt < 0) {
                    infeasible++;
                    assertThat(r.offsets()).as(what).isEmpty();
                    assertThat(r.infeasible()).as(what).isTrue();
                    continue;
                }
                minimised++;
                assertThat(r.optimal()).as(what).isTrue();
                assertThat(r.stop()).as(what).isEqualTo(Minimizer.Stop.NONE);
                assertThat(r.upper()).as(what).isEqualTo(opt);
                assertThat(r.lower()).as(what).isEqualTo(opt);
                PlacementCheck.assertValid(p.withLimit(opt), new Outcome.Solved(r.offsets().orElseThrow(), r.upper()), what);
                if (start.isPresent() && start.get().height() <= p.limit() && opt < start.get().height()) {
                    belowStart++;
                }
            }
            // the comparison must have teeth: many problems minimised, some below the heuristics
            assertThat(minimised).isGreaterThan(PROBLEMS / 2);
            assertThat(belowStart).isPositive();
            System.out.printf("minimiser vs brute force (%s): %d minimised (%d below the heuristics), %d infeasible%n",
                    names[k[0] - 1], minimised, belowStart, infeasible);
        }));
    }

    @Test
    void withLittleWorkTheBracketStillHoldsTheOptimum() {
        SplittableRandom rnd = new SplittableRandom(77);
        int open = 0;
        for (int t = 0; t < PROBLEMS; t++) {
            SpaceProblem p = roomy(RandomProblems.medium(rnd), rnd);
            long opt = BruteForce.optimum(p);
            String what = "problem " + t + ": " + RandomProblems.describe(p);
            Optional<Outcome.Solved> start = heuristicStart(p);
            if (opt < 0 || start.isEmpty() || start.get().height() > p.limit()) {
                continue;
            }
            Minimizer.Result r = Minimizer.minimize(p, start, p.lowerBound(),
                    new Minimizer.Work(0, 1 + rnd.nextInt(40), 1 + rnd.nextInt(8)),
                    ExactSolver.Settings.defaults().searchOnly(), Budget.unlimited(), s -> { });
            assertThat(r.lower()).as(what).isLessThanOrEqualTo(opt);
            assertThat(r.upper()).as(what).isGreaterThanOrEqualTo(opt).isLessThanOrEqualTo(start.get().height());
            assertThat(r.optimal()).as(what).isEqualTo(r.lower() == r.upper());
            if (!r.optimal()) {
                open++;
                assertThat(r.stop()).as(what).isEqualTo(Minimizer.Stop.WORK);
            }
            PlacementCheck.assertValid(p.withLimit(r.upper()), new Outcome.Solved(r.offsets().orElseThrow(), r.upper()),
                    what);
        }
        assertThat(open).as("brackets left open by the small work budgets").isPositive();
    }

    @Test
    void theSameProblemStartAndWorkGiveTheSameResult() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int t = 0; t < 60; t++) {
            SpaceProblem p = roomy(RandomProblems.medium(rnd), rnd);
            Optional<Outcome.Solved> start = heuristicStart(p);
            Minimizer.Work work = new Minimizer.Work(200, 1 + rnd.nextInt(300), 1 + rnd.nextInt(16));
            Minimizer.Result a = Minimizer.minimize(p, start, p.lowerBound(), work,
                    ExactSolver.Settings.defaults().searchOnly(), Budget.unlimited(), s -> { });
            Minimizer.Result b = Minimizer.minimize(p, start, p.lowerBound(), work,
                    ExactSolver.Settings.defaults().searchOnly().withThreads(2), Budget.unlimited(), s -> { });
            assertThat(b.steps()).isEqualTo(a.steps());
            assertThat(b.nodes()).isEqualTo(a.nodes());
            assertThat(b.offsets().map(long[]::clone).orElse(null)).isEqualTo(a.offsets().orElse(null));
        }
    }
}
