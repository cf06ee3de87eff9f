package dev.berth.cli;

import dev.berth.artifact.Plan;
import dev.berth.cli.report.HtmlReport;
import dev.berth.io.tflite.TflmOfflinePlan;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files {@code berth plan} writes: {@code -o} (the plan artifact, or a CSV's rows with their
 * offsets), {@code --report} (HTML) and {@code --tflm-plan} (the model with TFLM's offline plan).
 * Every output is made before any is written, and all are renamed into place together
 * ({@link AtomicFiles#writeAll}).
 */
final class PlanFiles {
    private PlanFiles() {
    }

    static void write(PlanRequest request, PlanOutcome planned) {
        Plan plan = planned.plan();
        PlanRequest.Outputs files = request.outputs();
        Map<Path, AtomicFiles.Content> outputs = new LinkedHashMap<>();
        if (files.output().isPresent()) {
            Path output = files.output().get();
            outputs.put(output, CsvWorkloads.output(output, planned.in(), plan));
        }
        if (files.report().isPresent()) {
            outputs.put(files.report().get(), AtomicFiles.Content.of(HtmlReport.toBytes(plan)));
        }
        if (files.tflmPlan().isPresent()) {
            outputs.put(files.tflmPlan().get(), AtomicFiles.Content.of(planned.reordered().isPresent()
                    ? planned.reordered().get().bytes()
                    : TflmOfflinePlan.write(request.load().workload(), planned.tflite().orElseThrow().model(),
                    planned.offline())));
        }
        AtomicFiles.writeAll(outputs);
    }
}
