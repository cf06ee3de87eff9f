package dev.berth.cli;

import dev.berth.artifact.Plan;
import dev.berth.io.tflite.ImportedTflite;
import dev.berth.io.tflite.TflmHeadPlan;
import dev.berth.io.tflite.TflmReorderedPlan;
import dev.berth.plan.PlanResult;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@code berth plan} planned, for its files and its output: what was loaded, the operators'
 * schedule, the result printed and written ({@code result}: the planner's, or for a TFLite model
 * the offline plan TFLM's head is smallest with, or with {@code --order}/{@code --in-place} and
 * {@code --tflm-plan} the reordered model's), TFLM's head choice ({@code head}: a TFLite model in
 * one space at the default order) and the reordered model ({@code reordered}).
 */
record PlanOutcome(WorkloadSources.Loaded in, OperatorOptions.Scheduled scheduled, PlanResult result,
                   Optional<TflmHeadPlan.Choice> head, Optional<TflmReorderedPlan.Result> reordered) {
    PlanOutcome {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(scheduled, "scheduled");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(head, "head");
        Objects.requireNonNull(reordered, "reordered");
    }

    Plan plan() {
        return result.plan();
    }

    /** The TFLite model planned, when the input is one. */
    Optional<ImportedTflite> tflite() {
        return in.source() instanceof WorkloadSources.Source.Tflite t ? Optional.of(t.model()) : Optional.empty();
    }

    /**
     * The offline plan {@code --tflm-plan} writes, one offset a tensor (-1: TFLM places it): the
     * reordered model's, else the head choice's (there is one whenever {@code --tflm-plan} is
     * accepted: a TFLite model, one space).
     */
    int[] offline() {
        return reordered.isPresent() ? reordered.get().head().offline() : head.orElseThrow().offline();
    }
}
