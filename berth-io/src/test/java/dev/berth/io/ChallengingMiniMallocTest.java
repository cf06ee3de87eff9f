package dev.berth.io;

import dev.berth.TestData;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.plan.Effort;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MiniMalloc's eleven challenging instances, each at capacity 1,048,576, through the
 * planner (so every plan passes the admission check and the plan validator): the exact solver
 * places every one within the capacity, {@code auto} does too with its default minimisation, and
 * the skyline heuristic alone (no complete search) comes within 1.10 times the lower bound. Not
 * part of the default run: {@code mvn -B -Pchallenging verify}. The instances are in
 * {@code testdata/benchmarks/minimalloc}.
 */
@Tag("challenging")
class ChallengingMiniMallocTest {
    private static final long CAPACITY = 1_048_576;
    private static final double SECONDS_EACH = 300;

    private interface Check {
        void run(String name, MiniMallocCsv.Document doc) throws Exception;
    }

    private static Stream<DynamicTest> eachInstance(Check check) {
        return Stream.of("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K").map(name ->
                DynamicTest.dynamicTest(name, () -> {
                    Path file = TestData.require("benchmarks/minimalloc/" + name + "." + CAPACITY + ".csv");
                    check.run(name, MiniMallocCsv.read(file));
                }));
    }

    private static SpaceMetrics plan(MiniMallocCsv.Document doc, long capacity, Planner.Options options) {
        var target = MiniMallocCsv.target(capacity);
        PlanResult r = Planner.plan(target, doc.workload(target), options);
        assertThat(r.verdict().valid()).isTrue();
        return r.plan().spaces().get(MiniMallocCsv.SPACE);
    }

    @TestFactory
    Stream<DynamicTest> everyInstanceSolvesAtCapacity() {
        return eachInstance((name, doc) -> {
            SpaceMetrics m = plan(doc, CAPACITY, new Planner.Options(SolverChoice.EXACT, SECONDS_EACH)
                    .withEffort(Effort.FIT));
            assertThat(m.highWater()).as(name).isLessThanOrEqualTo(CAPACITY);
            assertThat(m.optimality().orElseThrow().solver()).isEqualTo(SolverKind.EXACT);
        });
    }

    @TestFactory
    Stream<DynamicTest> autoSolvesEveryInstanceAtCapacityAndSaysWhatItProved() {
        return eachInstance((name, doc) -> {
            SpaceMetrics m = plan(doc, CAPACITY, new Planner.Options(SolverChoice.AUTO, SECONDS_EACH));
            assertThat(m.highWater()).as(name).isLessThanOrEqualTo(CAPACITY);
            var o = m.optimality().orElseThrow();
            assertThat(o.lowerBound()).isBetween(m.peakLive(), m.highWater());
            assertThat(o.timeLimited()).as(name + ": the work budget, not the clock, ends the search").isFalse();
        });
    }

    @TestFactory
    Stream<DynamicTest> theSkylineHeuristicIsWithinTenPercentOfTheLowerBound() {
        return eachInstance((name, doc) -> {
            // the heuristic's own height, judged in a space large enough for any height
            SpaceMetrics m = plan(doc, Long.MAX_VALUE, new Planner.Options(SolverChoice.SKYLINE, SECONDS_EACH));
            long lb = m.optimality().orElseThrow().lowerBound();
            assertThat((double) m.highWater() / lb).as(name + ": height " + m.highWater() + ", lower bound " + lb)
                    .isLessThanOrEqualTo(1.10);
        });
    }
}
