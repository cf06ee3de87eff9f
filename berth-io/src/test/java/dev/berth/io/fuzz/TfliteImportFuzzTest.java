package dev.berth.io.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.berth.io.TargetJson;
import dev.berth.io.tflite.ImportedTflite;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.io.tflite.TflmHeadPlan;
import dev.berth.io.tflite.TflmOfflinePlan;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Fuzzes the TFLite import: the verifier, the generated FlatBuffers classes over what it let
 * through, TFLM's view and the workload, on {@code tflm}. Any bytes give an imported model or
 * {@code invalid-input}; an imported model plans (best fit, 1 s) or fails typed, and its offline
 * plan can be written into a copy of the bytes, which reads back, and TFLM's head is predicted never
 * above TFLM's own ({@link #checkHead}). Seeds (three small TFLM models
 * of testdata and a WHILE model built with the schema's builders) and findings:
 * {@code TfliteImportFuzzTestInputs/tfliteFile/}.
 */
class TfliteImportFuzzTest {
    private static final Target TFLM = TargetJson.load("tflm");

    @FuzzTest(maxDuration = FuzzSettings.MAX_DURATION)
    void tfliteFile(byte[] bytes) {
        Optional<ImportedTflite> read = Outcomes.read(() -> TfliteImport.read(ByteBuffer.wrap(bytes), "fuzz.tflite", TFLM,
                TfliteImport.Options.of()));
        Planner.Options options = new Planner.Options(SolverChoice.BEST_FIT, 1);
        read.ifPresent(m -> Outcomes.typed(() -> Planner.plan(m.target(), m.workload(), options)).ifPresent(r -> {
            Outcomes.typed(() -> TflmOfflinePlan.write(ByteBuffer.wrap(bytes), "fuzz.tflite", m.model(),
                    TflmOfflinePlan.offsets(m, r.plan())));
            // TFLM's head as Berth predicts it: never above TFLM's own, and a validated plan
            Outcomes.typed(() -> TflmHeadPlan.choose(m, r, options)).ifPresent(TfliteImportFuzzTest::checkHead);
        }));
    }

    /**
     * TFLM's own tensor placement as an offline plan ends at TFLM's own head, its layout passes the
     * validator under Berth's lifetimes, and the head kept is at most that. (Finding
     * {@code crash-tflm-own-unused-tensors-at-step-minus-1}: tensors TFLM never marks as used, which
     * Berth once kept at step 0 with the inputs, failed it.)
     */
    static void checkHead(TflmHeadPlan.Choice c) {
        if (!c.predicted()) {
            return;
        }
        long own = c.tflmHead().getAsLong();
        for (TflmHeadPlan.Candidate k : c.candidates()) {
            if (k.source() == TflmHeadPlan.Source.TFLM_OWN) {
                if (k.predictedHead() != own) {
                    throw new AssertionError("TFLM's own placement predicts " + k.predictedHead() + ", TFLM's own head is " + own);
                }
                if (!k.valid()) {
                    throw new AssertionError("TFLM's own placement fails the validator under Berth's lifetimes");
                }
                if (c.predictedHead().getAsLong() > own) {
                    throw new AssertionError("predicted head " + c.predictedHead() + " above TFLM's own " + own);
                }
            }
        }
    }
}
