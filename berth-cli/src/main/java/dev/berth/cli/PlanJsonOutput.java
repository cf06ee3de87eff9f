package dev.berth.cli;

import dev.berth.artifact.Plan;
import dev.berth.io.PlanJson;
import dev.berth.plan.PlanResult;

import java.io.IOException;
import java.io.PrintWriter;

/**
 * {@code berth plan --json}'s output, one JSON document on stdout (contract §7): the spaces, the
 * assignment, the artifact's order, the schedule, the files written and a TFLite model's head.
 */
final class PlanJsonOutput {
    private PlanJsonOutput() {
    }

    static void print(PrintWriter out, PlanRequest request, PlanOutcome planned) throws IOException {
        PlanResult r = planned.result();
        Plan plan = r.plan();
        PlanRequest.Outputs files = request.outputs();
        JsonOut.print(out, g -> {
            g.writeStartObject();
            g.writeFieldName("spaces");
            PlanJson.writeSpaces(g, plan.spaces());
            if (r.assignment().isPresent()) {
                g.writeFieldName("assignment");
                PlanJson.writeAssignment(g, r.assignment().get());
            }
            if (plan.order().isPresent()) {
                g.writeFieldName("order");
                PlanJson.writeOrder(g, plan.order().get());
            }
            if (planned.scheduled().chosen().isPresent()) {
                g.writeFieldName("schedule");
                OrderSummary.writeJson(g, planned.scheduled().chosen().get());
            }
            g.writeStringField("output", files.output().isEmpty() ? null : files.output().get().toString());
            if (files.tflmPlan().isPresent()) {
                g.writeStringField("tflmPlan", files.tflmPlan().get().toString());
            }
            if (planned.head().isPresent()) {
                g.writeFieldName("tflm");
                TfliteSummary.writeJson(g, planned.tflite().orElseThrow(), plan, planned.head().get());
            }
            g.writeEndObject();
        });
    }
}
