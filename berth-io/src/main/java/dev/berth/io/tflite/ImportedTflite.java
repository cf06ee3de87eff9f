package dev.berth.io.tflite;

import dev.berth.target.Target;
import dev.berth.workload.Workload;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A TFLite model turned into a workload.
 *
 * @param model          what the file holds
 * @param view           TFLM's view of every tensor (bytes, planned, first and last use)
 * @param target         the target planned on (the given one, with the arena made finite by
 *                       {@code --capacity})
 * @param workload       planned tensors in {@code arenaSpace}, variable tensors in
 *                       {@code variableSpace}, constant buffers in {@code constantSpace}
 * @param bufferOf       tensor label ({@code t12}, {@code s1.t3}) → the workload buffer holding it;
 *                       tensors with no bytes to place are absent
 * @param scratch        the kernels' scratch buffers planned in {@code arenaSpace} ({@code scratch0}, ...),
 *                       empty when none were given
 * @param accesses       per arena tensor (planned, not variable), the import's estimate of its
 *                       accesses: one write, one read per operator input reading it, one more for
 *                       an output of the model
 * @param storedShape    the inputs of subgraph 0 whose shape signature has -1 and that no
 *                       {@code --input} stated: planned at the shape the file stores, as TFLM plans them
 * @param keepsFilePlan  the file holds an offline plan and Berth compares its own with it (no
 *                       {@code --replace-plan}): it writes its own only if valid and its head is no larger
 * @param kept           the tensors whose offsets in the file's plan Berth keeps (custom operators'
 *                       tensors): not buffers of the workload but its fixed regions ({@code kept0}, ...)
 *                       in {@code arenaSpace}; empty without {@code keepsFilePlan}
 * @param predicted      when {@code scratch} is Berth's prediction of TFLM's reference kernels' requests
 *                       ({@link TflmKernels#reference}), the prediction (with the operators it does not know)
 */
public record ImportedTflite(String name, TfliteModel model, TflmView view, Target target, Workload workload,
                             String arenaSpace, String variableSpace, String constantSpace,
                             Map<String, String> bufferOf, List<TflmScratch> scratch, Map<String, Long> accesses,
                             List<TfliteModel.Tensor> storedShape, boolean keepsFilePlan,
                             List<TflmView.Entry> kept, Optional<TflmKernels.Prediction> predicted) {
    public ImportedTflite {
        bufferOf = Map.copyOf(bufferOf);
        scratch = List.copyOf(scratch);
        storedShape = List.copyOf(storedShape);
        kept = List.copyOf(kept);
        accesses = Collections.unmodifiableMap(new LinkedHashMap<>(accesses));
    }

    /**
     * Per entry of the view, the file plan's offset of a kept tensor, -1 for every other; {@code null}
     * when no tensor is kept.
     */
    public int[] keptOffsets() {
        if (kept.isEmpty()) {
            return null;
        }
        Set<String> labels = new HashSet<>();
        kept.forEach(e -> labels.add(e.label()));
        return view.entries().stream().mapToInt(e -> labels.contains(e.label()) ? e.offlineOffset() : -1).toArray();
    }

    /** Per entry of the view, the offset the file's offline plan gives it (-1: none); {@code null} without a plan. */
    public int[] fileOffsets() {
        return model.offlinePlan().isEmpty() ? null : view.entries().stream().mapToInt(TflmView.Entry::offlineOffset)
                .toArray();
    }

    /** Tensors TFLM plans in its arena. */
    public long plannedCount() {
        return view.entries().stream().filter(TflmView.Entry::planned).count();
    }

    public long variableCount() {
        return view.entries().stream().filter(TflmView.Entry::variable).count();
    }

    /**
     * Berth's step minus TFLM's: 1 when TFLM leaves a tensor it plans unmarked (Berth's step 0 is then
     * TFLM's step -1, where TFLM keeps such tensors), else 0.
     */
    public int stepShift() {
        return TfliteImport.stepShift(view);
    }

    public long constantCount() {
        return view.entries().stream().filter(TflmView.Entry::constant).count();
    }
}
