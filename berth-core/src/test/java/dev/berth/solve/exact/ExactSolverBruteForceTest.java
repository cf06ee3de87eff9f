package dev.berth.solve.exact;

import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exact solver against an independent brute force on small random problems with mixed
 * alignments (not only powers of two), zero-size items and fixed items: the same verdict
 * (placement or proof), and every placement checked by {@link PlacementCheck}. Each settings
 * variant exercises a different part of the search (no learning, one order, restarts every few
 * nodes so that learned failures are reused across orders, static orders, heuristics first).
 */
class ExactSolverBruteForceTest {
    private static final int PROBLEMS = 250;

    static Stream<ExactSolver.Settings> variants() {
        ExactSolver.Settings d = ExactSolver.Settings.defaults();
        return Stream.of(
                d.searchOnly(),
                d,
                new ExactSolver.Settings(false, List.of("WAT"), true, false, 0, 1),
                new ExactSolver.Settings(false, List.of("TAW", "Z", "WAT"), true, true, 1, 2),
                new ExactSolver.Settings(false, List.of("TWA", "AZ"), false, true, 3, 1));
    }

    @TestFactory
    Stream<DynamicTest> agreesWithBruteForceOnSmallProblems() {
        return variants().map(settings -> DynamicTest.dynamicTest(settings.toString(), () -> {
            int feasible = 0;
            int infeasible = 0;
            SplittableRandom rnd = new SplittableRandom(20260511);
            for (int t = 0; t < PROBLEMS; t++) {
                SpaceProblem p = RandomProblems.small(rnd);
                boolean expected = BruteForce.feasible(p);
                Outcome o = new ExactSolver(settings).solve(p, Budget.unlimited());
                String what = "problem " + t + ": " + RandomProblems.describe(p);
                if (expected) {
                    feasible++;
                    assertThat(o).as(what).isInstanceOf(Outcome.Solved.class);
                    PlacementCheck.assertValid(p, (Outcome.Solved) o, what);
                } else {
                    infeasible++;
                    assertThat(o).as(what).isInstanceOf(Outcome.Infeasible.class);
                }
            }
            // both verdicts must be well represented, or the comparison proves little
            assertThat(feasible).isGreaterThan(PROBLEMS / 5);
            assertThat(infeasible).isGreaterThan(PROBLEMS / 5);
        }));
    }

    @TestFactory
    Stream<DynamicTest> agreesWithBruteForceWhenItemsHaveIdenticalTwins() {
        return variants().map(settings -> DynamicTest.dynamicTest(settings.toString(), () -> {
            SplittableRandom rnd = new SplittableRandom(4242);
            List<Boolean> verdicts = new ArrayList<>();
            for (int t = 0; t < 100; t++) {
                SpaceProblem p = RandomProblems.twins(rnd);
                boolean expected = BruteForce.feasible(p);
                verdicts.add(expected);
                Outcome o = new ExactSolver(settings).solve(p, Budget.unlimited());
                String what = "problem " + t + ": " + RandomProblems.describe(p);
                assertThat(o).as(what).isInstanceOf(expected ? Outcome.Solved.class : Outcome.Infeasible.class);
                if (expected) {
                    PlacementCheck.assertValid(p, (Outcome.Solved) o, what);
                }
            }
            assertThat(verdicts).contains(true, false);
        }));
    }

    @TestFactory
    Stream<DynamicTest> agreesWithBruteForceOnTighterMediumProblems() {
        return Stream.of(ExactSolver.Settings.defaults().searchOnly(),
                new ExactSolver.Settings(false, List.of("WAT", "TAW"), true, true, 2, 2)).map(settings ->
                DynamicTest.dynamicTest(settings.toString(), () -> {
                    SplittableRandom rnd = new SplittableRandom(77);
                    List<Boolean> verdicts = new ArrayList<>();
                    for (int t = 0; t < 120; t++) {
                        SpaceProblem p = RandomProblems.medium(rnd);
                        boolean expected = BruteForce.feasible(p);
                        verdicts.add(expected);
                        Outcome o = new ExactSolver(settings).solve(p, Budget.unlimited());
                        String what = "problem " + t + ": " + RandomProblems.describe(p);
                        assertThat(o).as(what).isInstanceOf(expected ? Outcome.Solved.class : Outcome.Infeasible.class);
                        if (expected) {
                            PlacementCheck.assertValid(p, (Outcome.Solved) o, what);
                        }
                    }
                    assertThat(verdicts).contains(true, false);
                }));
    }
}
