package dev.berth.cli;

import dev.berth.failure.Visible;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.berth.artifact.Plan;
import dev.berth.failure.BerthException;
import dev.berth.io.FileErrors;
import dev.berth.io.InputKind;
import dev.berth.io.PlanJson;
import dev.berth.io.TargetJson;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.io.tflite.TfliteOperatorOrder;
import dev.berth.io.tflite.TflmHeadPlan;
import dev.berth.io.tflite.TflmReorderedPlan;
import dev.berth.io.tflite.TflmKernels;
import dev.berth.plan.Effort;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.solve.Progress;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;
import dev.berth.workload.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code berth plan}. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Plan a workload: give every buffer an offset in its space, verify the plan, print the metrics.",
        footer = {"", "Examples:",
                "  berth plan examples/seed.json",
                "  berth plan examples/seed.json --solver exact --show",
                "  berth plan examples/seed.json --minimize",
                "  berth plan examples/seed.json -o plan.json --json",
                "  berth plan examples/seed.json -o plan.json --report plan.html",
                "  berth plan examples/block.json --order best --in-place elementwise",
                "  berth plan model.onnx --input x=1x3x640x640",
                "  berth plan model.bin --input x=1x3x640x640",
                "  berth plan model.onnx --input x=1x3x48x192 --fast-space sram",
                "  berth plan person_detect.tflite --fast-space sram --fast-capacity 64KiB",
                "  berth plan person_detect.tflite --capacity 64KiB",
                "  berth plan person_detect.tflite --tflm-plan person_detect.planned.tflite",
                "  berth plan keyword_scrambled_8bit.tflite --tflm-scratch scratch.json --tflm-plan kws.planned.tflite",
                "  berth plan A.1048576.csv --capacity 1MiB -o A.out.csv",
                "  berth plan A.1048576.csv",
                "  berth plan D.1048576.csv --capacity 1MiB --minimize --time-limit 300"})
final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "WORKLOAD",
            description = "Workload file (JSON), ONNX model, TensorFlow Lite model or MiniMalloc CSV, told by its "
                    + "content (the extension .json, .onnx, .tflite, .csv is a hint).")
    Path workload;

    @Option(names = "--target", paramLabel = "NAME|FILE", defaultValue = "npu-ref",
            description = "Bundled target (npu-ref, teaching, tflm) or a target file. Default: ${DEFAULT-VALUE} "
                    + "(tflm for a .tflite model).")
    String target;

    @Option(names = "--solver", paramLabel = "SOLVER", defaultValue = "auto",
            description = "auto, greedy, best-fit, skyline or exact. auto minimises every space's high-water mark "
                    + "within a work budget (heuristics, then an exact search); exact minimises with the exact "
                    + "search at any size; greedy, best-fit and skyline are heuristics alone. Default: ${DEFAULT-VALUE}.")
    String solver;

    @Option(names = "--time-limit", paramLabel = "SECONDS",
            description = "Safety net on the searches' time, in seconds: the work budget, not the clock, normally ends "
                    + "them; a plan the clock cut short says so. Default: 10, or 60 with --minimize.")
    Double timeLimit;

    @Option(names = "--capacity", paramLabel = "SIZE",
            description = "Capacity of the single space of a MiniMalloc CSV input (without it the space is logical "
                    + "and its height minimised); for a TFLite model, the arena's size (the arena becomes finite: a "
                    + "plan that does not fit fails).")
    String capacity;

    @Option(names = "--input", paramLabel = "NAME=DIMS|NAME=VALUE",
            description = "Fix an ONNX graph input's shape (1x3x640x640) or a scalar input's value; for TFLite, an "
                    + "input whose shape signature has -1 (default: the shape the file stores, the only one accepted).")
    List<String> inputsFixed = new ArrayList<>();

    @picocli.CommandLine.Mixin
    OnnxSpaceOptions onnxSpaces = new OnnxSpaceOptions();

    @picocli.CommandLine.Mixin
    OperatorOptions operators = new OperatorOptions();

    @Option(names = {"-o", "--output"}, paramLabel = "PLAN.json",
            description = "Write the plan artifact here (for a .csv workload, FILE.csv writes its rows with offsets).")
    Path output;

    @picocli.CommandLine.Mixin
    SearchNodesOption searchNodes = new SearchNodesOption();

    @Option(names = "--minimize", description = "Minimise with a larger work budget (auto or exact), printing each "
            + "space's bracket [lower bound, best height] as it narrows.")
    boolean minimize;

    @Option(names = "--report", paramLabel = "PLAN.html", description = "Also write the HTML report of the plan here.")
    Path report;

    @Option(names = "--tflm-plan", paramLabel = "OUT.tflite", description = "For a TFLite model: write a copy of it "
            + "with the plan as TFLM's offline memory plan (metadata entry OfflineMemoryAllocation); the input is "
            + "never changed.")
    Path tflmPlan;

    @Option(names = "--tflm-scratch", paramLabel = "FILE", description = "For a TFLite model: the scratch buffers "
            + "TFLM's kernels request ({\"scratch\": [{\"size\": 256, \"first\": 2, \"last\": 2}, ...]}): Berth plans "
            + "the arena with them and predicts the head TFLM ends with when it places them around the offline plan.")
    Path tflmScratch;

    @Option(names = "--tflm-kernels", paramLabel = "reference|other", description = "For a TFLite model without "
            + "--tflm-scratch: the kernel library it runs with. reference (the default): Berth predicts the scratch "
            + "buffers TFLM's reference kernels request and plans with them; other (CMSIS-NN, vendor kernels, which "
            + "request other sizes): none are predicted.")
    String tflmKernels;

    @Option(names = "--replace-plan", description = "For a TFLite model that already holds an offline plan "
            + "(OfflineMemoryAllocation): plan every tensor anew and write Berth's plan. Without it, Berth keeps the "
            + "file's offsets of custom operators' tensors and writes its own plan only if its head is no larger.")
    boolean replacePlan;

    @Option(names = "--show", description = "Print a picture of the plan (address over steps).")
    boolean show;

    @Option(names = "--json", description = "Print only JSON on stdout.")
    boolean json;

    @picocli.CommandLine.Mixin
    QuietOption quiet = new QuietOption();

    @Option(names = "--width", paramLabel = "COLUMNS", defaultValue = "0",
            description = "Width of the --show picture, at least " + Picture.MIN_WIDTH + " columns (default: the "
                    + "terminal's, else 100).")
    int width;

    /** The bytes of {@code file}; a failure to read is invalid-input naming it, as every input's. */
    private static byte[] readAll(Path file) {
        try {
            return java.nio.file.Files.readAllBytes(file);
        } catch (IOException e) {
            throw FileErrors.cannotRead(file, file.toString(), e);
        }
    }

    @Override
    public Integer call() throws IOException {
        Interrupts.install(System.err);
        SolverChoice choice = SearchOptions.solver(solver, minimize);
        searchNodes.check(choice);
        double seconds = SearchOptions.timeLimit(timeLimit != null ? timeLimit : minimize ? 60 : 10);
        if (width != 0 && width < Picture.MIN_WIDTH) {
            throw BerthException.invalid("--width", Integer.toString(width), "--width: the picture needs at least "
                    + Picture.MIN_WIDTH + " columns, got " + width);
        }
        InputKind kind = InputKind.of(workload);
        List<Path> inputs = new ArrayList<>(List.of(workload));
        boolean targetGiven = spec.commandLine().getParseResult().hasMatchedOption("--target");
        String target = !targetGiven && kind == InputKind.TFLITE ? WorkloadSources.TFLITE_TARGET : this.target;
        if (!TargetJson.BUNDLED.contains(target)) {
            inputs.add(Path.of(target));
        }
        if (tflmScratch != null) {
            if (kind != InputKind.TFLITE) {
                throw BerthException.invalid("--tflm-scratch", tflmScratch.toString(), "--tflm-scratch gives a TFLite "
                        + "model's scratch buffers; " + workload + " is not a .tflite model");
            }
            inputs.add(tflmScratch);
        }
        if (tflmKernels != null && kind != InputKind.TFLITE) {
            throw BerthException.invalid("--tflm-kernels", tflmKernels, "--tflm-kernels names a TFLite model's kernel "
                    + "library; " + workload + " is not a .tflite model");
        }
        TflmKernels.Library library = tflmKernels == null ? TflmKernels.Library.REFERENCE
                : TflmKernels.Library.of(tflmKernels);
        if (tflmKernels != null && tflmScratch != null) {
            throw BerthException.invalid("--tflm-kernels", tflmKernels, "--tflm-kernels names the kernels whose scratch "
                    + "buffers Berth predicts; with --tflm-scratch the file gives them");
        }
        if (replacePlan && kind != InputKind.TFLITE) {
            throw BerthException.invalid("--replace-plan", "--replace-plan replaces a TFLite model's offline plan; "
                    + workload + " is not a .tflite model");
        }
        if (output != null) {
            AtomicFiles.requireDistinct(output, "-o", inputs);
        }
        CsvWorkloads.checkOutput(output, workload, kind);
        CsvWorkloads.checkTarget(kind, targetGiven);
        if (report != null) {
            AtomicFiles.requireDistinct(report, "--report", output == null ? inputs
                    : java.util.stream.Stream.concat(inputs.stream(), java.util.stream.Stream.of(output)).toList());
        }
        if (operators.inPlace() != dev.berth.schedule.InPlace.NONE && onnxSpaces.fast != null) {
            throw BerthException.invalid("--in-place", operators.inPlace().id(), "--in-place " + operators.inPlace().id()
                    + " shares a buffer's bytes with its input's in one space; with --fast-space an activation may "
                    + "live in either of two");
        }
        if (tflmPlan != null && onnxSpaces.fast != null) {
            throw BerthException.invalid("--tflm-plan", tflmPlan.toString(), "--tflm-plan writes TFLM's offline plan, "
                    + "which has one arena; with --fast-space the activations may live in two spaces");
        }
        if (tflmPlan != null) {
            if (kind != InputKind.TFLITE) {
                throw BerthException.invalid("--tflm-plan", tflmPlan.toString(), "--tflm-plan writes a TFLite model's "
                        + "offline plan; " + workload + " is not a .tflite model");
            }
            List<Path> taken = new ArrayList<>(inputs);
            if (output != null) {
                taken.add(output);
            }
            if (report != null) {
                taken.add(report);
            }
            AtomicFiles.requireDistinct(tflmPlan, "--tflm-plan", taken);
        }
        java.util.OptionalLong cap = capacity == null ? java.util.OptionalLong.empty()
                : java.util.OptionalLong.of(dev.berth.arith.Sizes.parse(capacity, "--capacity"));
        List<dev.berth.io.tflite.TflmScratch> scratch = tflmScratch == null ? List.of()
                : dev.berth.io.TflmScratchJson.read(tflmScratch);
        WorkloadSources.TfliteOptions tflite = new WorkloadSources.TfliteOptions(scratch, tflmScratch == null
                && library == TflmKernels.Library.REFERENCE, replacePlan);
        WorkloadSources.Loaded in = WorkloadSources.load(workload, kind, TargetJson.load(target), cap, inputsFixed,
                onnxSpaces.spaces(), tflite);
        TfliteImport.Options tfliteOptions = WorkloadSources.tfliteOptions(inputsFixed, onnxSpaces.spaces(), cap, tflite);
        Target t = in.target();
        OperatorOptions.Scheduled scheduled = operators.apply(in, workload.toString(), onnxSpaces.fast == null);
        Workload w = scheduled.workload();
        PrintWriter out = spec.commandLine().getOut();
        ProgressBar bar = ProgressBar.wanted(quiet.quiet, json, Terminal.stderrIsTerminal())
                ? new ProgressBar(System.err, Terminal.columns()) : null;
        PrintWriter log = !minimize || quiet.quiet ? null : spec.commandLine().getErr();
        if (log != null) {
            log.println("minimize: every space's smallest high-water mark within the work budget (heights of the placed "
                    + "reservations, before generation adds its allocations)");
            log.flush();
        }
        long start = System.nanoTime();
        Progress progress = new Progress() {
            @Override
            public void searching(double elapsedSeconds, double limitSeconds) {
                if (bar != null) {
                    bar.searching(elapsedSeconds, limitSeconds);
                }
            }

            @Override
            public boolean interrupted() {
                return Interrupts.requested();
            }

            @Override
            public void bracket(String space, long lower, long upper, String event) {
                if (bar != null) {
                    bar.bracket(space, lower, upper, event);
                }
                if (log != null) {
                    synchronized (log) {
                        if (bar != null) {
                            bar.finish();
                        }
                        log.println(String.format(Locale.ROOT, "  %8.2f s  %s  [%d, %d]  %s",
                                (System.nanoTime() - start) / 1e9, Visible.text(space), lower, upper, event));
                        log.flush();
                    }
                }
            }
        };
        Planner.Options options = searchNodes.applyTo(new Planner.Options(choice,
                minimize ? Effort.MINIMIZE : Effort.DEFAULT, seconds, 0, progress));
        PlanResult planned;
        try {
            planned = Planner.plan(t, w, options);
        } finally {
            if (bar != null) {
                bar.finish();
            }
        }
        // a TFLite model: the offline plan whose head, once TFLM has placed the rest online, is smallest
        // (not with --fast-space: TFLM's offline plan has one arena, and the activations were given two spaces)
        java.util.Optional<dev.berth.io.tflite.ImportedTflite> tfliteModel = in.source()
                instanceof WorkloadSources.Source.Tflite tf ? java.util.Optional.of(tf.model()) : java.util.Optional.empty();
        java.util.Optional<TflmHeadPlan.Choice> head = tfliteModel.isEmpty() || planned.assignment().isPresent()
                || !operators.defaults()
                ? java.util.Optional.empty() : java.util.Optional.of(TflmHeadPlan.choose(tfliteModel.get(), planned, options));
        // --order/--in-place with --tflm-plan: the model rewritten in the chosen order (subgraph 0's operators
        // vector), imported again so that TFLM's steps are the new order's, its pairs placed at one offset
        // (contract §7); the plan printed and written is that model's
        java.util.Optional<TflmReorderedPlan.Result> reordered = java.util.Optional.empty();
        if (tflmPlan != null && !operators.defaults()) {
            dev.berth.io.tflite.ImportedTflite m = tfliteModel.orElseThrow();
            reordered = java.util.Optional.of(TflmReorderedPlan.plan(java.nio.ByteBuffer.wrap(readAll(workload)),
                    workload.getFileName().toString(), m, tfliteOptions,
                    TfliteOperatorOrder.of(m, scheduled.chosen().orElseThrow().schedule()), operators.inPlace(), options));
        }
        PlanResult r = reordered.isPresent() ? reordered.get().head().result()
                : head.isPresent() ? head.get().result() : planned;
        Plan plan = r.plan();
        // every output is made before any is written, and all are renamed into place together
        java.util.Map<Path, AtomicFiles.Content> outputs = new java.util.LinkedHashMap<>();
        if (output != null) {
            outputs.put(output, CsvWorkloads.output(output, in, plan));
        }
        if (report != null) {
            outputs.put(report, AtomicFiles.Content.of(dev.berth.cli.report.HtmlReport.toBytes(plan)));
        }
        int[] offline = null;
        if (tflmPlan != null) {
            dev.berth.io.tflite.ImportedTflite m = tfliteModel.orElseThrow();
            if (reordered.isPresent()) {
                offline = reordered.get().head().offline();
                outputs.put(tflmPlan, AtomicFiles.Content.of(reordered.get().bytes()));
            } else {
                offline = head.orElseThrow().offline();
                outputs.put(tflmPlan, AtomicFiles.Content.of(dev.berth.io.tflite.TflmOfflinePlan.write(workload,
                        m.model(), offline)));
            }
        }
        AtomicFiles.writeAll(outputs);
        if (json) {
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
                if (scheduled.chosen().isPresent()) {
                    g.writeFieldName("schedule");
                    OrderSummary.writeJson(g, scheduled.chosen().get());
                }
                g.writeStringField("output", output == null ? null : output.toString());
                if (tflmPlan != null) {
                    g.writeStringField("tflmPlan", tflmPlan.toString());
                }
                if (head.isPresent()) {
                    g.writeFieldName("tflm");
                    TfliteSummary.writeJson(g, tfliteModel.get(), plan, head.get());
                }
                g.writeEndObject();
            });
            return exitCode();
        }
        out.println("plan " + Visible.text(plan.workload()) + " on target " + Visible.text(t.name()) + ": "
                + plan.buffers().size()
                + " reservations, verified (" + r.verdict().checks() + " checks)");
        out.print(Tables.summary(plan));
        scheduled.chosen().ifPresent(c -> out.print(OrderSummary.render(c)));
        r.assignment().ifPresent(a -> out.print(AssignmentTable.render(a, plan)));
        out.print(Tables.clockNotes(plan, seconds));
        out.print(Tables.tilesAndGeneration(plan));
        out.print(CsvWorkloads.notes(in));
        if (in.source() instanceof WorkloadSources.Source.Onnx onnx) {
            out.print(OnnxSummary.render(onnx.model(), plan));
        }
        if (tfliteModel.isPresent() && head.isPresent()) {
            out.print(TfliteSummary.render(tfliteModel.get(), plan, head.get(), tflmScratch != null));
        } else {
            tfliteModel.ifPresent(m -> out.print(TfliteSummary.storedShapes(m)));
        }
        if (show) {
            r.assignment().ifPresent(a -> out.print(AssignmentTable.why(a)));
            out.println();
            out.print(Picture.render(plan, width > 0 ? width : Terminal.columns()));
        }
        if (quiet.quiet) {
            return exitCode();
        }
        out.println(output == null ? "no artifact written (use -o PLAN.json)"
                : "wrote " + Visible.text(output.toString()));
        if (report != null) {
            out.println("wrote " + Visible.text(report.toString()));
        }
        if (tflmPlan != null) {
            long given = java.util.Arrays.stream(offline).filter(o -> o >= 0).count();
            out.println("wrote " + Visible.text(tflmPlan.toString()) + " (OfflineMemoryAllocation: " + offline.length
                    + " offsets, " + given
                    + " given, -1 for the rest)");
        }
        return exitCode();
    }

    /**
     * 0, or {@link Interrupts#EXIT_CODE} when a Ctrl-C (or SIGTERM) came while {@code plan} ran: the
     * plan printed and written is then the best found before it, each space it stopped saying
     * {@code interrupted} (contract §7).
     */
    private int exitCode() {
        if (!Interrupts.requested()) {
            return 0;
        }
        spec.commandLine().getErr().println("berth: interrupted: " + (output == null ? "the plan above is"
                : "wrote " + Visible.text(output.toString()) + ":") + " the best plan found before the interrupt, "
                + "validated (a space whose search stopped says 'interrupted')");
        spec.commandLine().getErr().flush();
        return Interrupts.EXIT_CODE;
    }
}
