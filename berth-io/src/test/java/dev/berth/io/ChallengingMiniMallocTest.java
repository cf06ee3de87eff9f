package dev.berth.io;

import dev.berth.plan.PlanFromOffsets;
import dev.berth.plan.PlanResult;
import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;
import dev.berth.solve.exact.ExactSolver;
import dev.berth.target.Target;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MiniMalloc's eleven challenging instances, each at capacity 1,048,576 (issue 7), solved by
 * the exact solver within a generous time limit and checked by the plan validator. Not part of
 * the default run: {@code mvn -B -Pchallenging verify}. Skipped when the shared data is absent.
 */
@Tag("challenging")
class ChallengingMiniMallocTest {
    private static final long CAPACITY = 1_048_576;
    private static final double SECONDS_EACH = 300;

    @TestFactory
    Stream<DynamicTest> everyInstanceSolvesAtCapacity() {
        return Stream.of("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K").map(name ->
                DynamicTest.dynamicTest(name, () -> {
                    Path file = SharedData.require("benchmarks/minimalloc/" + name + "." + CAPACITY + ".csv");
                    MiniMallocCsv.Document doc = MiniMallocCsv.read(file);
                    Target t = MiniMallocCsv.target(CAPACITY);
                    SpaceProblem p = PlanFromOffsets.problem(t, doc.workload(), MiniMallocCsv.SPACE);
                    Outcome o = new ExactSolver().solve(p, Budget.seconds(SECONDS_EACH));
                    assertThat(o).as(name + ": " + o).isInstanceOf(Outcome.Solved.class);
                    PlanResult r = PlanFromOffsets.plan(t, doc.workload(), MiniMallocCsv.SPACE,
                            ((Outcome.Solved) o).offsets(), "exact");
                    assertThat(r.verdict().valid()).isTrue();
                    assertThat(r.plan().spaces().get(MiniMallocCsv.SPACE).highWater()).isLessThanOrEqualTo(CAPACITY);
                }));
    }
}
