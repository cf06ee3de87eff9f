package dev.berth.cli;

import dev.berth.TestData;
import dev.berth.failure.BerthException;
import dev.berth.plan.Effort;
import dev.berth.solve.SolverChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link PlanRequest}: {@code plan}'s options checked in one step, before anything of the
 * workload is read, the first failure in {@code plan}'s order the one reported.
 */
class PlanRequestTest {
    @TempDir
    Path dir;

    private static final String SEED = TestData.root().resolve("examples/seed.json").toString();
    private static final String TFLITE = TestData.require("models/tflite/person_detect.tflite").toString();

    /** The request of {@code berth plan ARGS}, as {@code plan} makes it. */
    private static PlanRequest request(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "plan";
        System.arraycopy(args, 0, all, 1, args.length);
        CommandLine cl = Main.commandLine(all);
        cl.parseArgs(all);
        return PlanRequest.of(cl.getSubcommands().get("plan").getCommand());
    }

    private static String failure(String... args) {
        try {
            request(args);
        } catch (BerthException e) {
            return e.getMessage();
        }
        throw new AssertionError("accepted: " + String.join(" ", args));
    }

    @Test
    void theDefaultsAreTheContractsAndNothingIsToBeWritten() {
        PlanRequest r = request(SEED);
        assertThat(r.load().target().name()).isEqualTo("npu-ref");
        assertThat(r.search().solver()).isEqualTo(SolverChoice.AUTO);
        assertThat(r.search().effort()).isEqualTo(Effort.DEFAULT);
        assertThat(r.search().timeLimitSeconds()).isEqualTo(10);
        assertThat(r.search().searchNodes()).isEmpty();
        assertThat(r.outputs()).isEqualTo(new PlanRequest.Outputs(Optional.empty(), Optional.empty(),
                Optional.empty()));
        assertThat(r.print()).isEqualTo(new PlanRequest.Print(false, false, 0, false, false));
        assertThat(r.operators().defaults()).isTrue();
        assertThat(r.logsBrackets()).isFalse();
    }

    @Test
    void minimizeRaisesTheTimeLimitAndLogsTheBracketsUnlessQuiet() {
        PlanRequest r = request(SEED, "--minimize", "--search-nodes", "5000");
        assertThat(r.search().effort()).isEqualTo(Effort.MINIMIZE);
        assertThat(r.search().timeLimitSeconds()).isEqualTo(60);
        assertThat(r.search().searchNodes()).hasValue(5000);
        assertThat(r.logsBrackets()).isTrue();
        assertThat(request(SEED, "--minimize", "-q").logsBrackets()).isFalse();
        assertThat(request(SEED, "--minimize", "--time-limit", "3").search().timeLimitSeconds()).isEqualTo(3);
    }

    @Test
    void aTfliteModelIsPlannedOnTflmUnlessATargetIsGiven() {
        assertThat(request(TFLITE).load().target().name()).isEqualTo(WorkloadSources.TFLITE_TARGET);
        assertThat(request(TFLITE, "--target", "npu-ref").load().target().name()).isEqualTo("npu-ref");
        PlanRequest.Load load = request(TFLITE, "--tflm-kernels", "other").load();
        assertThat(load.tflite().predictScratch()).isFalse();
        assertThat(request(TFLITE).load().tflite().predictScratch()).isTrue();
    }

    @Test
    void theRequestReadsNothingOfTheWorkloadItsLoadDoes() {
        String missing = dir.resolve("missing.json").toString();
        PlanRequest r = request(missing, "-o", dir.resolve("plan.json").toString());
        assertThat(r.outputs().output()).hasValue(dir.resolve("plan.json"));
        assertThat(Files.exists(dir.resolve("missing.json"))).isFalse();
        assertThatThrownBy(() -> r.load().read()).isInstanceOf(BerthException.class).hasMessageContaining(missing);
    }

    @Test
    void theFirstFailureInPlansOrderIsTheOneReported() {
        // --width before the TFLite-only options, those before the outputs, those before --capacity
        assertThat(failure(SEED, "--width", "5", "--tflm-scratch", "s.json")).startsWith("invalid-input: --width:");
        assertThat(failure(SEED, "--tflm-scratch", "s.json", "-o", SEED)).startsWith("invalid-input: --tflm-scratch gives");
        assertThat(failure(SEED, "-o", SEED, "--capacity", "lots")).startsWith("invalid-input: -o: ").contains("is also an input");
        assertThat(failure(SEED, "--in-place", "all", "--capacity", "lots")).startsWith("invalid-input: --in-place: 'all'");
        assertThat(failure(SEED, "--capacity", "lots", "--target", dir.resolve("none.json").toString()))
                .contains("--capacity");
    }

    @Test
    void aBadOrderIsCheckedWhereItIsAppliedAfterTheWorkloadLoads() {
        String missing = dir.resolve("missing.json").toString();
        PlanRequest r = request(missing, "--order", "worst");
        assertThatThrownBy(() -> r.load().read()).isInstanceOf(BerthException.class).hasMessageContaining(missing);
        assertThatThrownBy(() -> r.operators().order()).isInstanceOf(BerthException.class)
                .hasMessage("invalid-input: --order: 'worst' is not one of file, best");
        Run run = Run.of("plan", missing, "--order", "worst");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains(missing).doesNotContain("--order");
    }

    @Test
    void theInputsAreACopy() {
        PlanRequest.Load load = request(TFLITE, "--input", "x=1x1").load();
        assertThat(load.inputs()).containsExactly("x=1x1");
        assertThatThrownBy(() -> load.inputs().add("y=1")).isInstanceOf(UnsupportedOperationException.class);
    }
}
