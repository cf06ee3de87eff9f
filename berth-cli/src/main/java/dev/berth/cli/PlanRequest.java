package dev.berth.cli;

import dev.berth.arith.Sizes;
import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.io.InputKind;
import dev.berth.io.TargetJson;
import dev.berth.io.TflmScratchJson;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.io.tflite.TflmKernels;
import dev.berth.io.tflite.TflmScratch;
import dev.berth.plan.Effort;
import dev.berth.plan.Planner;
import dev.berth.schedule.InPlace;
import dev.berth.solve.Progress;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * What {@code berth plan} is asked to do, its options checked ({@link #of}): what to load
 * ({@link Load}), how to plan ({@code search}: solver, effort, time limit, search nodes;
 * {@code operators}: order and in-place pairs), what to write ({@link Outputs}) and how to print
 * ({@link Print}). {@link #of} checks every option's value and the options together, reads
 * {@code --tflm-scratch}'s file and loads the target; what an option means for the workload (an
 * {@code --input}'s name, a space's) is checked when it is loaded, and {@code --order} where it is
 * applied, after loading (a bad {@code --order} with a workload that does not load reports the
 * workload, as it always did).
 */
record PlanRequest(Load load, Planner.Options search, OperatorOptions.Settings operators, Outputs outputs, Print print) {
    PlanRequest {
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(search, "search");
        Objects.requireNonNull(operators, "operators");
        Objects.requireNonNull(outputs, "outputs");
        Objects.requireNonNull(print, "print");
    }

    /**
     * What to load: the {@code WORKLOAD} file and its kind, the target loaded (the bundled one
     * named, a target file, or {@code tflm} for a TFLite model when {@code --target} is not
     * given), {@code --capacity}, {@code --input}, the spaces for a model's tensors and, for a
     * TFLite model, its scratch buffers and offline plan.
     */
    record Load(Path workload, InputKind kind, Target target, OptionalLong capacity, List<String> inputs,
                WorkloadSources.OnnxSpaces spaces, WorkloadSources.TfliteOptions tflite) {
        Load {
            Objects.requireNonNull(workload, "workload");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(capacity, "capacity");
            inputs = List.copyOf(inputs);
            Objects.requireNonNull(spaces, "spaces");
            Objects.requireNonNull(tflite, "tflite");
        }

        /** The workload loaded on the target ({@link WorkloadSources#load}). */
        WorkloadSources.Loaded read() {
            return WorkloadSources.load(workload, kind, target, capacity, inputs, spaces, tflite);
        }

        /** The options a TFLite model is imported with (again, for a reordered model). */
        TfliteImport.Options tfliteImport() {
            return WorkloadSources.tfliteOptions(inputs, spaces, capacity, tflite);
        }

        /** True when {@code --fast-space} is given: an activation may live in either of two spaces. */
        boolean fastSpace() {
            return spaces.fast().isPresent();
        }
    }

    /**
     * The files to write: {@code -o} (the plan artifact, or a CSV's rows with offsets),
     * {@code --report} (HTML) and {@code --tflm-plan} (the model with TFLM's offline plan); no
     * two of them and no input the same file.
     */
    record Outputs(Optional<Path> output, Optional<Path> report, Optional<Path> tflmPlan) {
        Outputs {
            Objects.requireNonNull(output, "output");
            Objects.requireNonNull(report, "report");
            Objects.requireNonNull(tflmPlan, "tflmPlan");
        }
    }

    /**
     * How to print: {@code --json} (only JSON on stdout), {@code --show} and its {@code --width}
     * (0: the terminal's), {@code -q}, and whether {@code --tflm-scratch} gave the scratch
     * buffers (the TFLite summary says so).
     */
    record Print(boolean json, boolean show, int width, boolean quiet, boolean scratchGiven) {
    }

    /** True when the minimisation prints its brackets on stderr as they narrow: {@code --minimize}, not {@code -q}. */
    boolean logsBrackets() {
        return search.effort() == Effort.MINIMIZE && !print.quiet();
    }

    /**
     * The request of {@code c}'s options, every check made in the order {@code plan} has always
     * made them (the first failure is the one reported): the search options, {@code --width}, the
     * workload's kind, the TFLite-only options, the outputs (none an input or another output), the
     * options that need one space, {@code --capacity}, {@code --tflm-scratch}'s file, the target,
     * {@code --fast-capacity}.
     */
    static PlanRequest of(PlanCommand c) {
        SolverChoice choice = SearchOptions.solver(c.solver, c.minimize);
        c.searchNodes.check(choice);
        double seconds = SearchOptions.timeLimit(c.timeLimit != null ? c.timeLimit : c.minimize ? 60 : 10);
        if (c.width != 0 && c.width < Picture.MIN_WIDTH) {
            throw Require.invalid("--width", Integer.toString(c.width), "the picture needs at least "
                    + Picture.MIN_WIDTH + " columns, got " + c.width);
        }
        Path workload = c.workload;
        InputKind kind = InputKind.of(workload);
        List<Path> inputs = new ArrayList<>(List.of(workload));
        boolean targetGiven = c.spec.commandLine().getParseResult().hasMatchedOption("--target");
        String target = !targetGiven && kind == InputKind.TFLITE ? WorkloadSources.TFLITE_TARGET : c.target;
        if (!TargetJson.BUNDLED.contains(target)) {
            inputs.add(Path.of(target));
        }
        TflmKernels.Library library = tfliteOptions(c, kind, inputs);
        Outputs outputs = outputs(c, kind, inputs, targetGiven);
        OptionalLong capacity = c.capacity == null ? OptionalLong.empty()
                : OptionalLong.of(Sizes.parse(c.capacity, "--capacity"));
        List<TflmScratch> scratch = c.tflmScratch == null ? List.of() : TflmScratchJson.read(c.tflmScratch);
        WorkloadSources.TfliteOptions tflite = new WorkloadSources.TfliteOptions(scratch, c.tflmScratch == null
                && library == TflmKernels.Library.REFERENCE, c.replacePlan);
        Load load = new Load(workload, kind, TargetJson.load(target), capacity, c.inputsFixed, c.onnxSpaces.spaces(),
                tflite);
        Planner.Options search = c.searchNodes.applyTo(new Planner.Options(choice,
                c.minimize ? Effort.MINIMIZE : Effort.DEFAULT, seconds, 0, Progress.NONE));
        return new PlanRequest(load, search, c.operators.settings(), outputs,
                new Print(c.json, c.show, c.width, c.quiet.quiet, c.tflmScratch != null));
    }

    /**
     * Checks {@code --tflm-scratch}, {@code --tflm-kernels} and {@code --replace-plan}, which only a
     * TFLite model takes ({@code --tflm-scratch}'s file joins {@code inputs}), and returns the kernel
     * library.
     */
    private static TflmKernels.Library tfliteOptions(PlanCommand c, InputKind kind, List<Path> inputs) {
        Path workload = c.workload;
        if (c.tflmScratch != null) {
            if (kind != InputKind.TFLITE) {
                throw BerthException.invalid("--tflm-scratch", c.tflmScratch.toString(), "--tflm-scratch gives a "
                        + "TFLite model's scratch buffers; " + workload + " is not a .tflite model");
            }
            inputs.add(c.tflmScratch);
        }
        if (c.tflmKernels != null && kind != InputKind.TFLITE) {
            throw BerthException.invalid("--tflm-kernels", c.tflmKernels, "--tflm-kernels names a TFLite model's "
                    + "kernel library; " + workload + " is not a .tflite model");
        }
        TflmKernels.Library library = c.tflmKernels == null ? TflmKernels.Library.REFERENCE
                : TflmKernels.Library.of(c.tflmKernels);
        if (c.tflmKernels != null && c.tflmScratch != null) {
            throw BerthException.invalid("--tflm-kernels", c.tflmKernels, "--tflm-kernels names the kernels whose "
                    + "scratch buffers Berth predicts; with --tflm-scratch the file gives them");
        }
        if (c.replacePlan && kind != InputKind.TFLITE) {
            throw BerthException.invalid("--replace-plan", "--replace-plan replaces a TFLite model's offline plan; "
                    + workload + " is not a .tflite model");
        }
        return library;
    }

    /**
     * Checks the outputs ({@code -o}, {@code --report}, {@code --tflm-plan}: none an input or
     * another output, a CSV output only for a CSV, {@code --tflm-plan} only for a TFLite model
     * in one space), {@code --target} with a CSV and {@code --in-place} with {@code --fast-space}.
     */
    private static Outputs outputs(PlanCommand c, InputKind kind, List<Path> inputs, boolean targetGiven) {
        Path output = c.output;
        Path report = c.report;
        Path tflmPlan = c.tflmPlan;
        if (output != null) {
            AtomicFiles.requireDistinct(output, "-o", inputs);
        }
        CsvWorkloads.checkOutput(output, c.workload, kind);
        CsvWorkloads.checkTarget(kind, targetGiven);
        if (report != null) {
            AtomicFiles.requireDistinct(report, "--report", output == null ? inputs
                    : Stream.concat(inputs.stream(), Stream.of(output)).toList());
        }
        InPlace inPlace = c.operators.settings().inPlace();
        if (inPlace != InPlace.NONE && c.onnxSpaces.fast != null) {
            throw BerthException.invalid("--in-place", inPlace.id(), "--in-place " + inPlace.id()
                    + " shares a buffer's bytes with its input's in one space; with --fast-space an activation may "
                    + "live in either of two");
        }
        if (tflmPlan != null && c.onnxSpaces.fast != null) {
            throw BerthException.invalid("--tflm-plan", tflmPlan.toString(), "--tflm-plan writes TFLM's offline plan, "
                    + "which has one arena; with --fast-space the activations may live in two spaces");
        }
        if (tflmPlan != null) {
            if (kind != InputKind.TFLITE) {
                throw BerthException.invalid("--tflm-plan", tflmPlan.toString(), "--tflm-plan writes a TFLite model's "
                        + "offline plan; " + c.workload + " is not a .tflite model");
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
        return new Outputs(Optional.ofNullable(output), Optional.ofNullable(report), Optional.ofNullable(tflmPlan));
    }
}
