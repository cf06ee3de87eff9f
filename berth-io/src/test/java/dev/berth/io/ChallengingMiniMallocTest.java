package dev.berth.io;

import dev.berth.TestData;
import dev.berth.plan.PlanFromOffsets;
import dev.berth.plan.PlanResult;
import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.skyline.SkylineSolver;
import dev.berth.solve.SpaceProblem;
import dev.berth.solve.exact.ExactSolver;
import dev.berth.solve.exact.Minimizer;
import dev.berth.target.Target;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MiniMalloc's eleven challenging instances, each at capacity 1,048,576: the exact
 * solver places every one within the capacity, and the skyline heuristic alone (no complete
 * search) within 1.10 times the lower bound; every placement passes the plan validator. Not
 * part of the default run: {@code mvn -B -Pchallenging verify}. The instances are in
 * {@code testdata/benchmarks/minimalloc}.
 */
@Tag("challenging")
class ChallengingMiniMallocTest {
    private static final long CAPACITY = 1_048_576;
    private static final double SECONDS_EACH = 300;

    /** One instance as read, and its problem in the single space of {@link MiniMallocCsv}. */
    private record Instance(String name, MiniMallocCsv.Document doc, SpaceProblem problem) {
    }

    private interface Check {
        void run(Instance in) throws Exception;
    }

    private static Stream<DynamicTest> eachInstance(Check check) {
        return Stream.of("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K").map(name ->
                DynamicTest.dynamicTest(name, () -> {
                    Path file = TestData.require("benchmarks/minimalloc/" + name + "." + CAPACITY + ".csv");
                    MiniMallocCsv.Document doc = MiniMallocCsv.read(file);
                    Target t = MiniMallocCsv.target(CAPACITY);
                    check.run(new Instance(name, doc, PlanFromOffsets.problem(t, doc.workload(t), MiniMallocCsv.SPACE)));
                }));
    }

    /** The plan of {@code offsets} in a space of {@code capacity}, after the validator passed it. */
    private static PlanResult validPlan(Instance in, long capacity, long[] offsets, String solver) {
        PlanResult r = PlanFromOffsets.plan(MiniMallocCsv.target(capacity), in.doc().workload(MiniMallocCsv.target(capacity)), MiniMallocCsv.SPACE,
                offsets, solver);
        assertThat(r.verdict().valid()).as(in.name() + ": " + r.verdict()).isTrue();
        return r;
    }

    @TestFactory
    Stream<DynamicTest> everyInstanceSolvesAtCapacity() {
        return eachInstance(in -> {
            Outcome o = new ExactSolver().solve(in.problem(), Budget.seconds(SECONDS_EACH));
            assertThat(o).as(in.name() + ": " + o).isInstanceOf(Outcome.Solved.class);
            PlanResult r = validPlan(in, CAPACITY, ((Outcome.Solved) o).offsets(), "exact");
            assertThat(r.plan().spaces().get(MiniMallocCsv.SPACE).highWater()).isLessThanOrEqualTo(CAPACITY);
        });
    }

    @TestFactory
    Stream<DynamicTest> theSkylineHeuristicIsWithinTenPercentOfTheLowerBound() {
        return eachInstance(in -> {
            long lb = Minimizer.lowerBound(in.problem());
            Outcome.Solved o = (Outcome.Solved) new SkylineSolver().solve(in.problem(), Budget.seconds(SECONDS_EACH));
            // the height is checked against the limit by the plan only when it fits; judge the
            // placement in a space large enough for any height
            PlanResult r = validPlan(in, Math.max(CAPACITY, o.height()), o.offsets(), "skyline");
            assertThat(r.plan().spaces().get(MiniMallocCsv.SPACE).highWater()).isEqualTo(o.height());
            assertThat((double) o.height() / lb).as(in.name() + ": height " + o.height() + ", lower bound " + lb)
                    .isLessThanOrEqualTo(1.10);
        });
    }
}
