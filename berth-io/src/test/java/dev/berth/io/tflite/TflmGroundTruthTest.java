package dev.berth.io.tflite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.TestData;
import dev.berth.artifact.Plan;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.io.PlanJson;
import dev.berth.io.TargetJson;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.target.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every tensor of every model of {@code testdata/models/tflite} has the bytes, the planned-or-not
 * and the first and last use that the real TensorFlow Lite Micro computed ({@code expected/}),
 * and each model plans on the bundled {@code tflm} target with a valid plan whose arena holds
 * exactly TFLM's planned tensors.
 */
class TflmGroundTruthTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<String> models() throws Exception {
        try (Stream<Path> s = Files.list(TestData.require("models/tflite"))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tflite")).sorted().toList().stream();
        }
    }

    /** The --input each model needs: hello_world's input has shape signature [-1, 1]. */
    static String[] inputs(String file) {
        return file.equals("hello_world_int8.tflite") ? new String[] {"serving_default_dense_input:0=1x1"} : new String[0];
    }

    /**
     * The model as TFLM's own plan sees it: with {@code --replace-plan}, so that Berth plans every tensor
     * (person_detect_vela's file plan ignored, as {@code expected/} has TFLM's plan without it).
     */
    static ImportedTflite load(String file) {
        return TfliteImport.read(TestData.require("models/tflite/" + file), TargetJson.load("tflm"),
                TfliteImport.Options.of(inputs(file)).withReplacePlan(true));
    }

    /**
     * With no {@code --input}, an input whose shape signature has -1 is planned at its stored shape
     * (hello_world's alone among the eight): the same workload as with that shape stated, the input
     * named in {@code storedShape}; another shape is {@code invalid-input}.
     */
    @ParameterizedTest
    @MethodSource("models")
    void noInputMeansTheStoredShape(String file) {
        Path in = TestData.require("models/tflite/" + file);
        Target tflm = TargetJson.load("tflm");
        ImportedTflite plain = TfliteImport.read(in, tflm, TfliteImport.Options.of().withReplacePlan(true));
        ImportedTflite stated = load(file);
        assertThat(plain.workload()).isEqualTo(stated.workload());
        assertThat(stated.storedShape()).isEmpty();
        assertThat(plain.storedShape()).extracting(TfliteModel.Tensor::label)
                .containsExactlyElementsOf(file.equals("hello_world_int8.tflite")
                        ? List.of("serving_default_dense_input:0") : List.of());
        if (!plain.storedShape().isEmpty()) {
            assertThat(plain.storedShape().get(0).shapeSignature().orElseThrow()).containsExactly(-1, 1);
            assertThat(plain.storedShape().get(0).shape()).containsExactly(1, 1);
            assertThatThrownBy(() -> TfliteImport.read(in, tflm,
                    TfliteImport.Options.of("serving_default_dense_input:0=2x1")))
                    .isInstanceOfSatisfying(BerthException.class, e -> {
                        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                        assertThat(e.getMessage()).contains("which are for serving_default_dense_input:0=1x1");
                    });
        }
    }

    @Test
    void allEightModelsAreHere() throws Exception {
        assertThat(models()).containsExactly("face_detection_short_range.tflite", "hello_world_int8.tflite",
                "keyword_scrambled_8bit.tflite", "micro_speech_quantized.tflite", "person_detect.tflite",
                "person_detect_vela.tflite", "selfie_segmentation.tflite", "trained_lstm_int8.tflite");
    }

    @ParameterizedTest
    @MethodSource("models")
    void everyTensorIsWhatTflmComputed(String file) throws Exception {
        Path dir = TestData.require("models/tflite");
        JsonNode expected = JSON.readTree(dir.resolve("expected").resolve(TfliteImport.stem(file) + ".json").toFile());
        ImportedTflite m = load(file);
        List<TflmView.Entry> entries = m.view().entries();
        JsonNode tensors = expected.get("tensors");
        assertThat(entries).hasSize(tensors.size());
        assertThat(m.model().subgraphs()).hasSize(expected.get("subgraphs").asInt());
        for (int i = 0; i < tensors.size(); i++) {
            JsonNode x = tensors.get(i);
            TflmView.Entry e = entries.get(i);
            String who = file + " tensor " + i;
            assertThat(e.subgraph()).as(who + " subgraph").isEqualTo(x.get("subgraph").asInt());
            assertThat(e.index()).as(who + " index").isEqualTo(x.get("index").asInt());
            assertThat(e.name()).as(who + " name").isEqualTo(x.get("name").isNull() ? "" : x.get("name").asText());
            assertThat(e.typeName()).as(who + " dtype").isEqualTo(x.get("dtype").asText());
            List<Integer> shape = new ArrayList<>();
            x.get("shape").forEach(d -> shape.add(d.asInt()));
            assertThat(e.shape()).as(who + " shape").containsExactly(shape.stream().mapToInt(Integer::intValue).toArray());
            assertThat(e.bytes()).as(who + " bytes").isEqualTo(x.get("bytes").asLong());
            assertThat(e.constant()).as(who + " constant").isEqualTo(x.get("constant").asBoolean());
            assertThat(e.variable()).as(who + " variable").isEqualTo(x.get("variable").asBoolean());
            assertThat(e.planned()).as(who + " planned").isEqualTo(x.get("planned").asBoolean());
            assertThat(e.firstUsed()).as(who + " first_used").isEqualTo(x.get("first_used").asInt());
            assertThat(e.lastUsed()).as(who + " last_used").isEqualTo(x.get("last_used").asInt());
        }
        assertThat(m.plannedCount()).isEqualTo(expected.get("planned_tensor_count").asLong());
        assertThat(m.variableCount()).isEqualTo(expected.get("variable_tensor_count").asLong());
        assertThat(m.model().offlinePlan().isPresent()).isEqualTo(expected.get("offline_plan_in_model").asBoolean());
    }

    @ParameterizedTest
    @MethodSource("models")
    void plansOnTheTflmTargetWithAValidPlan(String file) throws Exception {
        Path dir = TestData.require("models/tflite");
        JsonNode expected = JSON.readTree(dir.resolve("expected").resolve(TfliteImport.stem(file) + ".json").toFile());
        ImportedTflite m = load(file);
        PlanResult r = Planner.plan(m.target(), m.workload(), Planner.Options.defaults());
        Plan plan = r.plan();
        assertThat(r.verdict().checks()).isPositive();
        var arena = m.target().space("arena", "test");
        // the arena holds TFLM's planned tensors, each reserved as TFLM rounds it (up to 16 bytes)
        var inArena = plan.buffersIn(arena);
        assertThat(inArena).hasSize((int) m.plannedCount());
        for (var b : inArena) {
            assertThat(b.reserved()).isEqualTo((b.requested() + 15) / 16 * 16);
            assertThat(b.offset() % 16).isZero();
        }
        long head = plan.metrics(arena).highWater();
        long peak = plan.metrics(arena).peakLive();
        JsonNode only = expected.get("tflm_allocator_only");
        long tflmTensorHead = only.get("tensor_head_bytes").asLong();
        System.out.printf("%-32s berth head %8d  peak live %8d  TFLM tensor head %8d  TFLM head %s%n", file, head, peak,
                tflmTensorHead, expected.path("tflm_plan").isObject() ? expected.get("tflm_plan").get("head_bytes") : "-");
        assertThat(peak).isLessThanOrEqualTo(head);
        // never worse than TFLM's own online plan of the same tensors (for Vela's model: TFLM's plan
        // when it ignores Vela's offsets, which overlap tensors TFLM considers live together)
        JsonNode online = expected.has("tflm_allocator_only_ignoring_vela_plan")
                ? expected.get("tflm_allocator_only_ignoring_vela_plan") : only;
        assertThat(head).isLessThanOrEqualTo(online.get("head_bytes").asLong());
    }

    @ParameterizedTest
    @MethodSource("models")
    void theSameModelGivesTheSameArtifactBytesAgainAndOnFourThreads(String file) throws Exception {
        Callable<byte[]> run = () -> {
            ImportedTflite m = load(file);
            return PlanJson.toBytes(Planner.plan(m.target(), m.workload(), Planner.Options.defaults()).plan());
        };
        byte[] first = run.call();
        assertThat(run.call()).isEqualTo(first);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<byte[]>> f = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                f.add(pool.submit(run));
            }
            for (Future<byte[]> x : f) {
                assertThat(x.get()).isEqualTo(first);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
