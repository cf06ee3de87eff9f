package dev.berth.cli;

import dev.berth.failure.BerthException;
import dev.berth.io.FastSpace;
import dev.berth.io.InputKind;
import dev.berth.io.MiniMallocCsv;
import dev.berth.io.WorkloadJson;
import dev.berth.io.onnx.ImportedModel;
import dev.berth.io.onnx.OnnxImport;
import dev.berth.io.tflite.ImportedTflite;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.io.tflite.TflmScratch;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.Workload;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Turns the {@code WORKLOAD} argument of {@code plan} into a target and a workload, by file
 * kind ({@link InputKind#of}: the content, the extension as a hint): a Berth workload (JSON), a
 * MiniMalloc CSV (one space, {@code --capacity}), an ONNX model ({@code --input NAME=DIMS}), a
 * TensorFlow Lite model (on the {@code tflm} target by default; {@code --capacity} makes its
 * arena finite).
 */
final class WorkloadSources {
    /**
     * What {@code plan} plans: the target (possibly derived from the input), the workload, and
     * what it was loaded from ({@link Source}).
     */
    record Loaded(Target target, Workload workload, Source source) {
        Loaded {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(workload, "workload");
            Objects.requireNonNull(source, "source");
        }
    }

    /**
     * What a workload was loaded from, one case per kind of input, with what its reader found
     * beside the workload: nothing for a Berth workload (JSON); for a MiniMalloc CSV the rows read,
     * which a CSV output writes back with their offsets; for an ONNX model what the import found
     * (tensors, naive total, folded Ifs); for a TFLite model the model imported (its file plan,
     * TFLM's view, its stored shapes).
     */
    sealed interface Source {
        /** A Berth workload file (JSON). */
        record WorkloadFile() implements Source {
        }

        /** A MiniMalloc CSV and its rows. */
        record Csv(MiniMallocCsv.Document document) implements Source {
            public Csv {
                Objects.requireNonNull(document, "document");
            }
        }

        /** An ONNX model and what its import found. */
        record Onnx(ImportedModel model) implements Source {
            public Onnx {
                Objects.requireNonNull(model, "model");
            }
        }

        /** A TensorFlow Lite model and what its import found. */
        record Tflite(ImportedTflite model) implements Source {
            public Tflite {
                Objects.requireNonNull(model, "model");
            }
        }
    }

    /** The bundled target a {@code .tflite} input is planned on when {@code --target} is not given. */
    static final String TFLITE_TARGET = "tflm";

    /**
     * {@code --activation-space} and {@code --weight-space}: where an ONNX or TFLite model's tensors
     * go; {@code --fast-space} and {@code --fast-capacity}: the local space every activation may
     * move to, and its capacity.
     */
    record OnnxSpaces(Optional<String> activations, Optional<String> weights, Optional<String> fast,
                      OptionalLong fastCapacity) {
        static final OnnxSpaces DEFAULT = new OnnxSpaces(Optional.empty(), Optional.empty(), Optional.empty(),
                OptionalLong.empty());

        OnnxSpaces(Optional<String> activations, Optional<String> weights) {
            this(activations, weights, Optional.empty(), OptionalLong.empty());
        }

        boolean given() {
            return activations.isPresent() || weights.isPresent() || fast.isPresent() || fastCapacity.isPresent();
        }

        /** The option given, for the message that refuses it. */
        String givenName() {
            return activations.isPresent() ? "--activation-space" : weights.isPresent() ? "--weight-space"
                    : fast.isPresent() ? "--fast-space" : "--fast-capacity";
        }
    }

    private WorkloadSources() {
    }

    /** The TFLite import's options from the command line's (one place, for the import and a reordered import). */
    static TfliteImport.Options tfliteOptions(List<String> inputs, OnnxSpaces spaces,
                                              OptionalLong capacity, TfliteOptions tflite) {
        return new TfliteImport.Options(inputs, spaces.activations(), spaces.weights(), capacity, tflite.scratch(),
                tflite.replacePlan(), tflite.predictScratch());
    }

    /**
     * A TFLite model's options: {@code scratch}, the kernels' scratch buffers ({@code --tflm-scratch}),
     * planned in its arena; {@code predictScratch}, without them, those TFLM's reference kernels request
     * ({@code --tflm-kernels reference}); {@code replacePlan}, {@code --replace-plan}: an offline plan
     * already in the model is ignored.
     */
    record TfliteOptions(List<TflmScratch> scratch, boolean predictScratch, boolean replacePlan) {
        static final TfliteOptions NONE = new TfliteOptions(List.of(), false, false);
    }

    static Loaded load(Path file, InputKind kind, Target target, OptionalLong capacity, List<String> inputs,
                       OnnxSpaces spaces, TfliteOptions tflite) {
        if (kind == InputKind.MINIMALLOC_CSV) {
            if (spaces.fast().isPresent() || spaces.fastCapacity().isPresent()) {
                throw BerthException.invalid(spaces.fast().isPresent() ? "--fast-space" : "--fast-capacity",
                        "--fast-space and --fast-capacity apply to ONNX and TFLite models only");
            }
            return CsvWorkloads.load(file, capacity, inputs);
        }
        if (kind == InputKind.ONNX) {
            if (capacity.isPresent()) {
                throw BerthException.invalid("--capacity", "--capacity applies to MiniMalloc CSV and TFLite input only; "
                        + "an ONNX model takes capacities from its target");
            }
            ImportedModel m = OnnxImport.read(file, target, new OnnxImport.Options(inputs, spaces.activations(),
                    spaces.weights()));
            return fast(new Loaded(target, m.workload(), new Source.Onnx(m)), spaces, m.activationSpace(), m.accesses());
        }
        if (kind == InputKind.TFLITE) {
            ImportedTflite m = TfliteImport.read(file, target, tfliteOptions(inputs, spaces, capacity, tflite));
            return fast(new Loaded(m.target(), m.workload(), new Source.Tflite(m)), spaces, m.arenaSpace(), m.accesses());
        }
        if (capacity.isPresent()) {
            throw BerthException.invalid("--capacity", "--capacity applies to MiniMalloc CSV and TFLite input only; a "
                    + "JSON workload takes capacities from its target");
        }
        if (!inputs.isEmpty()) {
            throw BerthException.invalid("--input", "--input applies to ONNX and TFLite models only");
        }
        if (spaces.given()) {
            throw BerthException.invalid(spaces.givenName(), "--activation-space, --weight-space, --fast-space and "
                    + "--fast-capacity apply to ONNX and TFLite models only (a JSON workload lists its candidate spaces)");
        }
        return new Loaded(target, WorkloadJson.read(file, target), new Source.WorkloadFile());
    }

    /** With {@code --fast-space}: every activation a candidate for the fast space first (contract §7). */
    private static Loaded fast(Loaded l, OnnxSpaces spaces, String activationSpace, Map<String, Long> accesses) {
        if (spaces.fast().isEmpty()) {
            if (spaces.fastCapacity().isPresent()) {
                throw BerthException.invalid("--fast-capacity", "--fast-capacity gives the capacity of --fast-space's "
                        + "space; give --fast-space SPACE too");
            }
            return l;
        }
        Space slow = l.target().space(activationSpace, "--activation-space");
        Target t = FastSpace.target(l.target(), spaces.fast().get(), spaces.fastCapacity(), slow);
        Workload w = FastSpace.apply(l.workload().on(t), t.space(spaces.fast().get(), "--fast-space"),
                t.space(activationSpace, "--activation-space"), accesses);
        return new Loaded(t, w, l.source());
    }
}
