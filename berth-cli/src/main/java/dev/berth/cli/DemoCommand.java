package dev.berth.cli;

import dev.berth.artifact.Plan;
import dev.berth.cli.report.HtmlReport;
import dev.berth.text.Visible;
import dev.berth.io.PlanJson;
import dev.berth.io.TargetJson;
import dev.berth.io.onnx.ImportedModel;
import dev.berth.io.onnx.OnnxImport;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.target.Target;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code berth demo}: plans a real model bundled in the jar (PaddleOCR's text-direction
 * classifier, {@code dev/berth/demo/}, with its license file beside it) on {@code npu-ref},
 * writes the plan into {@code berth-demo/} and prints the summary.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Plan a real model bundled in the jar (PaddleOCR text-direction classifier, ONNX) on npu-ref, "
                + "write berth-demo/plan.json and its report berth-demo/plan.html, and print the summary.",
        footer = {"", "Examples:", "  berth demo", "  berth demo --dir /tmp/berth-demo"})
final class DemoCommand implements Callable<Integer> {
    /** The bundled model, its license file, and the input shape its shipping package feeds it. */
    static final String MODEL = "ch_ppocr_mobile_v2.0_cls_infer.onnx";
    static final String RESOURCE = "/dev/berth/demo/" + MODEL;
    static final String LICENSE = RESOURCE + ".LICENSE.txt";
    static final String INPUT = "x=1x3x48x192";

    @Spec
    CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "berth-demo",
            description = "Directory to write plan.json and plan.html into. Default: ${DEFAULT-VALUE} (in the current directory).")
    Path dir;

    @Override
    public Integer call() {
        Target target = TargetJson.load("npu-ref");
        ImportedModel model = OnnxImport.read(bundled(RESOURCE), MODEL, target, OnnxImport.Options.of(INPUT));
        PlanResult r = Planner.plan(target, model.workload(), Planner.Options.defaults());
        Plan plan = r.plan();
        Path planFile = dir.resolve("plan.json");
        Path report = dir.resolve("plan.html");
        // both made first, then renamed into place together: a failed demo leaves an earlier one as it was
        Map<Path, AtomicFiles.Content> outputs = new LinkedHashMap<>();
        outputs.put(planFile, o -> PlanJson.write(plan, o));
        outputs.put(report, AtomicFiles.Content.of(HtmlReport.toBytes(plan)));
        AtomicFiles.writeAll(outputs);
        PrintWriter out = spec.commandLine().getOut();
        out.println("berth demo: " + MODEL + " (PaddleOCR text-direction classifier; Apache-2.0 weights, MIT package; "
                + "license in the jar at " + LICENSE.substring(1) + ")");
        out.println("input " + INPUT + ", target " + target.name() + ": " + plan.buffers().size()
                + " reservations, verified (" + r.verdict().checks() + " checks)");
        out.print(Tables.summary(plan));
        out.print(OnnxSummary.render(model, plan));
        out.println("wrote " + Visible.text(planFile.toString()));
        out.println("wrote " + Visible.text(report.toString()) + " (open it in a browser: address over steps, one rectangle per reservation)");
        return 0;
    }

    private static byte[] bundled(String resource) {
        try (InputStream in = DemoCommand.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
