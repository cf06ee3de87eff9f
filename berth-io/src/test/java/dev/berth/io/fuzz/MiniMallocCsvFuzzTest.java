package dev.berth.io.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.berth.io.MiniMallocCsv;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the MiniMalloc CSV reader. A file that reads is planned in one space of 1 MiB (greedy
 * or best fit, 1 s) and must give a validated plan or a typed failure; a plan's CSV output
 * (the rows with their offsets) must read back, every row now fixed at its planned offset.
 * Seeds and findings: {@code MiniMallocCsvFuzzTestInputs/csvFile/}.
 */
class MiniMallocCsvFuzzTest {
    private static final long CAPACITY = 1 << 20;

    @FuzzTest(maxDuration = FuzzSettings.MAX_DURATION)
    void csvFile(byte[] bytes) {
        Optional<MiniMallocCsv.Document> read = Outcomes.read(() -> MiniMallocCsv.read(bytes, "fuzz", "fuzz.csv"));
        read.ifPresent(doc -> {
            SolverChoice solver = bytes.length % 2 == 0 ? SolverChoice.BEST_FIT : SolverChoice.GREEDY;
            Optional<PlanResult> planned = Outcomes.typed(() -> Planner.plan(MiniMallocCsv.target(CAPACITY),
                    doc.workload(MiniMallocCsv.target(CAPACITY)), new Planner.Options(solver, 1)));
            planned.ifPresent(result -> {
                String out = MiniMallocCsv.write(doc, result.plan());
                MiniMallocCsv.Document back = Outcomes.read(() -> MiniMallocCsv.parse(out, "out", "out.csv"))
                        .orElseThrow(() -> new AssertionError("Berth cannot read the CSV it wrote:\n" + out));
                assertThat(back.rows()).hasSameSizeAs(doc.rows());
                assertThat(back.rows()).allSatisfy(r -> assertThat(r.offset()).isPresent());
            });
        });
    }
}
