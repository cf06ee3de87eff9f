package dev.berth.cli;

import dev.berth.TestData;
import dev.berth.io.InputKind;
import dev.berth.io.TargetJson;
import dev.berth.target.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link WorkloadSources.Loaded}'s source is one case per kind of input ({@link InputKind}), each
 * holding what its reader found: the case says what was read, and nothing can claim two kinds.
 */
class WorkloadSourcesTest {
    @TempDir
    Path dir;

    private static final WorkloadSources.OnnxSpaces FAST_SRAM = new WorkloadSources.OnnxSpaces(Optional.empty(),
            Optional.empty(), Optional.of("sram"), OptionalLong.empty());

    private static WorkloadSources.Loaded load(Path file, String target, OptionalLong capacity,
                                               WorkloadSources.OnnxSpaces spaces) {
        return WorkloadSources.load(file, InputKind.of(file), TargetJson.load(target), capacity, List.of(), spaces,
                WorkloadSources.TfliteOptions.NONE);
    }

    @Test
    void theSourceHasOneCasePerKindOfInput() {
        assertThat(WorkloadSources.Source.class.isSealed()).isTrue();
        assertThat(Arrays.stream(WorkloadSources.Source.class.getPermittedSubclasses()).map(Class::getSimpleName))
                .containsExactlyInAnyOrder("WorkloadFile", "Csv", "Onnx", "Tflite")
                .hasSize(InputKind.values().length);
    }

    @Test
    void aWorkloadFileIsItsOwnCase() {
        WorkloadSources.Loaded in = load(TestData.root().resolve("examples/seed.json"), "npu-ref",
                OptionalLong.empty(), WorkloadSources.OnnxSpaces.DEFAULT);
        assertThat(in.source()).isInstanceOf(WorkloadSources.Source.WorkloadFile.class);
        assertThat(in.target().name()).isEqualTo("npu-ref");
    }

    @Test
    void aCsvHoldsItsRowsAndItsTargetComesFromTheCapacity() throws IOException {
        Path csv = dir.resolve("x.csv");
        Files.writeString(csv, "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\n");
        WorkloadSources.Loaded in = load(csv, "npu-ref", OptionalLong.of(8), WorkloadSources.OnnxSpaces.DEFAULT);
        assertThat(in.source()).isInstanceOfSatisfying(WorkloadSources.Source.Csv.class,
                c -> assertThat(c.document().workload(in.target()).buffers()).hasSize(2));
        assertThat(in.workload().buffers()).hasSize(2);
    }

    @Test
    void anOnnxModelHoldsItsImportAndKeepsItWithAFastSpace() {
        Path model = TestData.require("models/hello_deepa.onnx");
        WorkloadSources.Loaded in = load(model, "npu-ref", OptionalLong.empty(), WorkloadSources.OnnxSpaces.DEFAULT);
        assertThat(in.source()).isInstanceOfSatisfying(WorkloadSources.Source.Onnx.class,
                o -> assertThat(o.model().workload()).isSameAs(in.workload()));
        WorkloadSources.Loaded fast = load(model, "npu-ref", OptionalLong.empty(), FAST_SRAM);
        assertThat(fast.source()).isInstanceOf(WorkloadSources.Source.Onnx.class);
        assertThat(fast.workload()).isNotEqualTo(((WorkloadSources.Source.Onnx) fast.source()).model().workload());
    }

    @Test
    void aTfliteModelHoldsItsImportOnTheTargetItDerives() {
        Path model = TestData.require("models/tflite/person_detect.tflite");
        WorkloadSources.Loaded in = load(model, WorkloadSources.TFLITE_TARGET, OptionalLong.empty(),
                WorkloadSources.OnnxSpaces.DEFAULT);
        assertThat(in.source()).isInstanceOfSatisfying(WorkloadSources.Source.Tflite.class, t -> {
            assertThat(t.model().target()).isSameAs(in.target());
            assertThat(t.model().workload()).isSameAs(in.workload());
        });
    }

    @Test
    void noPartIsNull() {
        Target t = TargetJson.load("npu-ref");
        WorkloadSources.Loaded in = load(TestData.root().resolve("examples/seed.json"), "npu-ref",
                OptionalLong.empty(), WorkloadSources.OnnxSpaces.DEFAULT);
        assertThatThrownBy(() -> new WorkloadSources.Loaded(t, in.workload(), null))
                .isInstanceOf(NullPointerException.class).hasMessage("source");
        assertThatThrownBy(() -> new WorkloadSources.Source.Csv(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new WorkloadSources.Source.Onnx(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new WorkloadSources.Source.Tflite(null)).isInstanceOf(NullPointerException.class);
    }
}
