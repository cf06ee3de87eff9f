package dev.berth.cli;

import dev.berth.text.Visible;
import dev.berth.io.model.FileErrors;
import dev.berth.io.tflite.ImportedTflite;
import dev.berth.io.tflite.TfliteOperatorOrder;
import dev.berth.io.tflite.TflmHeadPlan;
import dev.berth.io.tflite.TflmReorderedPlan;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.solve.Progress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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

    @Mixin
    OnnxSpaceOptions onnxSpaces = new OnnxSpaceOptions();

    @Mixin
    OperatorOptions operators = new OperatorOptions();

    @Option(names = {"-o", "--output"}, paramLabel = "PLAN.json",
            description = "Write the plan artifact here (for a .csv workload, FILE.csv writes its rows with offsets).")
    Path output;

    @Mixin
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

    @Mixin
    QuietOption quiet = new QuietOption();

    @Option(names = "--width", paramLabel = "COLUMNS", defaultValue = "0",
            description = "Width of the --show picture, at least " + Picture.MIN_WIDTH + " columns (default: the "
                    + "terminal's, else 100).")
    int width;

    /**
     * The run, one line a phase: the request (every option checked), the workload loaded, its
     * operators scheduled, the plan (and TFLM's head for a TFLite model), the files written, the
     * output printed, as text or with {@code --json}.
     */
    @Override
    public Integer call() throws IOException {
        Interrupts.install(System.err);
        PlanRequest request = PlanRequest.of(this);
        WorkloadSources.Loaded in = request.load().read();
        OperatorOptions.Scheduled scheduled = request.operators().apply(in, request.load().workload().toString(),
                !request.load().fastSpace());
        PlanOutcome planned = plan(request, in, scheduled);
        PlanFiles.write(request, planned);
        PrintWriter out = spec.commandLine().getOut();
        if (request.print().json()) {
            PlanJsonOutput.print(out, request, planned);
        } else {
            PlanText.print(out, request, planned);
        }
        return exitCode(request.outputs().output());
    }

    /**
     * The plan of {@code scheduled}'s workload, with the progress bar and {@code --minimize}'s
     * brackets on stderr while it runs; for a TFLite model, the offline plan whose head, once TFLM
     * has placed the rest online, is smallest, or with {@code --order}/{@code --in-place} and
     * {@code --tflm-plan} the reordered model's plan.
     */
    private PlanOutcome plan(PlanRequest request, WorkloadSources.Loaded in, OperatorOptions.Scheduled scheduled) {
        ProgressBar bar = ProgressBar.wanted(request.print().quiet(), request.print().json(),
                Terminal.stderrIsTerminal()) ? new ProgressBar(System.err, Terminal.columns()) : null;
        PrintWriter log = request.logsBrackets() ? spec.commandLine().getErr() : null;
        if (log != null) {
            log.println("minimize: every space's smallest high-water mark within the work budget (heights of the placed "
                    + "reservations, before generation adds its allocations)");
            log.flush();
        }
        Planner.Options options = request.search().withProgress(progress(bar, log, System.nanoTime()));
        PlanResult planned;
        try {
            planned = Planner.plan(in.target(), scheduled.workload(), options);
        } finally {
            if (bar != null) {
                bar.finish();
            }
        }
        return tflm(request, new PlanOutcome(in, scheduled, planned, Optional.empty(), Optional.empty()), options);
    }

    /**
     * {@code planned} with TFLM's head chosen for a TFLite model (not with {@code --fast-space}:
     * TFLM's offline plan has one arena, and the activations were given two spaces; not with
     * {@code --order}/{@code --in-place}); with those and {@code --tflm-plan}, the model rewritten
     * in the chosen order (subgraph 0's operators vector), imported again so that TFLM's steps are
     * the new order's, its pairs placed at one offset (contract §7): the plan printed and written
     * is that model's.
     */
    private static PlanOutcome tflm(PlanRequest request, PlanOutcome planned, Planner.Options options) {
        Optional<ImportedTflite> tflite = planned.tflite();
        PlanResult result = planned.result();
        OperatorOptions.Settings operators = request.operators();
        Optional<TflmHeadPlan.Choice> head = tflite.isEmpty() || result.assignment().isPresent()
                || !operators.defaults() ? Optional.empty() : Optional.of(TflmHeadPlan.choose(tflite.get(), result,
                options));
        Optional<TflmReorderedPlan.Result> reordered = Optional.empty();
        if (request.outputs().tflmPlan().isPresent() && !operators.defaults()) {
            ImportedTflite m = tflite.orElseThrow();
            Path workload = request.load().workload();
            reordered = Optional.of(TflmReorderedPlan.plan(ByteBuffer.wrap(readAll(workload)),
                    workload.getFileName().toString(), m, request.load().tfliteImport(),
                    TfliteOperatorOrder.of(m, planned.scheduled().chosen().orElseThrow().schedule()),
                    operators.inPlace(), options));
        }
        PlanResult r = reordered.isPresent() ? reordered.get().head().result()
                : head.isPresent() ? head.get().result() : result;
        return new PlanOutcome(planned.in(), planned.scheduled(), r, head, reordered);
    }

    /** What the planner tells as it runs, to the progress bar and the brackets' log ({@code null}: none). */
    private static Progress progress(ProgressBar bar, PrintWriter log, long start) {
        return new Progress() {
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
    }

    /** The bytes of {@code file}; a failure to read is invalid-input naming it, as every input's. */
    private static byte[] readAll(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw FileErrors.cannotRead(file, file.toString(), e);
        }
    }

    /**
     * 0, or {@link Interrupts#EXIT_CODE} when a Ctrl-C (or SIGTERM) came while {@code plan} ran: the
     * plan printed and written is then the best found before it, each space it stopped saying
     * {@code interrupted} (contract §7).
     */
    private int exitCode(Optional<Path> output) {
        if (!Interrupts.requested()) {
            return 0;
        }
        spec.commandLine().getErr().println("berth: interrupted: " + (output.isEmpty() ? "the plan above is"
                : "wrote " + Visible.text(output.get().toString()) + ":") + " the best plan found before the interrupt, "
                + "validated (a space whose search stopped says 'interrupted')");
        spec.commandLine().getErr().flush();
        return Interrupts.EXIT_CODE;
    }
}
