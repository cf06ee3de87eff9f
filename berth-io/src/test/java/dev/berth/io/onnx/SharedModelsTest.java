package dev.berth.io.onnx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.TestData;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.io.TargetJson;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every real model of {@code testdata/models} imports with the input shapes its README gives,
 * plans on npu-ref with a valid plan, and its tensors have exactly the types, shapes and sizes
 * onnxruntime reported ({@code testdata/models/expected}).
 */
class SharedModelsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void filesAreTheOnesTheReadmeLists() throws Exception {
        Path dir = TestData.require("models");
        String readme = Files.readString(dir.resolve("README.md"));
        Matcher m = Pattern.compile("^\\| `([^`]+\\.onnx)` \\|.*\\| (\\d+) \\| `([0-9a-f]{64})` \\|$", Pattern.MULTILINE)
                .matcher(readme);
        Map<String, String> sha = new LinkedHashMap<>();
        Map<String, Long> size = new LinkedHashMap<>();
        while (m.find()) {
            sha.put(m.group(1), m.group(3));
            size.put(m.group(1), Long.parseLong(m.group(2)));
        }
        TreeSet<String> present = new TreeSet<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".onnx")).forEach(present::add);
        }
        assertThat(sha.keySet()).as("models listed in the README").containsExactlyInAnyOrderElementsOf(present);
        assertThat(sha).hasSize(4);
        for (Map.Entry<String, String> e : sha.entrySet()) {
            Path f = dir.resolve(e.getKey());
            assertThat(Files.size(f)).as("size of " + e.getKey()).isEqualTo(size.get(e.getKey()));
            assertThat(sha256(f)).as("sha256 of " + e.getKey()).isEqualTo(e.getValue());
        }
    }

    private static String sha256(Path f) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(f)) {
            byte[] buf = new byte[1 << 16];
            for (int r; (r = in.read(buf)) > 0; ) {
                md.update(buf, 0, r);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.berth.TestData#onnxModels")
    void importsAndPlansWithAValidPlan(String file, List<String> inputs) {
        Path model = TestData.require("models/" + file);
        Target npuRef = TargetJson.load("npu-ref");
        ImportedModel im = OnnxImport.read(model, npuRef, new OnnxImport.Options(inputs, Optional.empty(),
                Optional.empty()));
        PlanResult r = Planner.plan(npuRef, im.workload(), Planner.Options.defaults());
        assertThat(PlanValidator.validate(r.plan()).valid()).isTrue();
        assertThat(r.plan().buffers().stream().filter(b -> b.origin() == Origin.TENSOR))
                .hasSize(im.workload().buffers().size());
        // and npu-ref's generation adds the instruction stream, nothing else (no tiles, no descriptors)
        assertThat(r.plan().buffers().stream().filter(b -> b.origin() != Origin.TENSOR))
                .extracting(PlannedBuffer::name).containsExactly("instructions");
        // every activation byte is planned in global, every weight in weights
        long weights = 0;
        for (BufferSpec b : im.workload().buffers()) {
            assertThat(b.space().name()).isIn("global", "weights");
            if (b.space().name().equals("weights")) {
                weights += b.size();
                assertThat(b.live().first()).isZero();
                assertThat(b.live().last()).isEqualTo(im.steps().size() - 1);
            }
        }
        assertThat(weights).isEqualTo(im.weightBytes()).isPositive();
        // no placement can beat the peak of live reserved bytes, and the planner reports it
        assertThat(r.plan().spaces().get("global").highWater()).isGreaterThanOrEqualTo(r.plan().spaces().get("global").peakLive());
        assertThat(r.plan().spaces().get("global").peakLive()).isPositive().isLessThanOrEqualTo(alignedNaive(im, 64));
    }

    private static long alignedNaive(ImportedModel im, long alignment) {
        long s = 0;
        for (TensorRecord t : im.activations()) {
            s += (t.bytes() + alignment - 1) / alignment * alignment;
        }
        return s;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.berth.TestData#onnxModels")
    void tensorSizesEqualWhatOnnxruntimeSaw(String file, List<String> inputs) throws IOException {
        Path model = TestData.require("models/" + file);
        JsonNode expected = JSON.readTree(TestData.require("models/expected/" + file + ".shapes.json").toFile());
        ImportedModel im = OnnxImport.read(model, TargetJson.load("npu-ref"), new OnnxImport.Options(inputs,
                Optional.empty(), Optional.empty()));
        Map<String, TensorRecord> mine = new LinkedHashMap<>();
        for (TensorRecord t : im.tensors()) {
            mine.put(t.name(), t);
        }
        boolean silero = expected.has("taken_branch");
        JsonNode tensors = silero ? expected.get("taken_branch").get("tensors") : expected.get("tensors");
        JsonNode figures = silero ? expected.get("taken_branch").get("reference_figures") : expected.get("reference_figures");
        int compared = 0;
        int synthetic = 0;
        for (Map.Entry<String, JsonNode> e : tensors.properties()) {
            JsonNode x = e.getValue();
            TensorRecord t = mine.get(e.getKey());
            assertThat(t).as("tensor " + e.getKey() + " of " + file).isNotNull();
            assertThat(t.type().id()).as("dtype of " + t.name()).isEqualTo(x.get("dtype").asText());
            assertThat(t.shape().dims()).as("shape of " + t.name()).containsExactly(longs(x.get("shape")));
            assertThat(t.bytes()).as("bytes of " + t.name()).isEqualTo(x.get("bytes").asLong());
            if (x.path("synthetic").asBoolean(false)) {
                // an If output: the runtime's Identity of the branch output; Berth aliases that tensor
                assertThat(t.kind()).isEqualTo(TensorRecord.Kind.IF_OUTPUT);
                assertThat(t.aliasOf()).contains(x.get("alias_of").asText());
                synthetic++;
            } else {
                assertThat(t.kind()).as("kind of " + t.name()).isEqualTo(TensorRecord.Kind.ACTIVATION);
                compared++;
                if (!silero) {
                    // step = node index here: the files' node lists are already in topological order
                    assertThat(t.live().first()).as("producer step of " + t.name())
                            .isEqualTo(x.get("producer_node_index").asInt());
                    int last = x.get("last_consumer_node_index").isNull()
                            ? (x.get("is_graph_output").asBoolean() ? im.steps().size() - 1 : t.live().first())
                            : x.get("last_consumer_node_index").asInt();
                    assertThat(t.live().last()).as("last step of " + t.name()).isEqualTo(last);
                }
            }
        }
        long activations = im.tensors().stream().filter(t -> t.kind() == TensorRecord.Kind.ACTIVATION).count();
        assertThat(compared).as("tensors compared").isEqualTo(activations)
                .isEqualTo(silero ? expected.get("taken_branch").get("tensor_count").asInt() : expected.get("tensor_count").asInt());
        if (silero) {
            assertThat(synthetic).isEqualTo(expected.get("taken_branch").get("synthetic_identity_count").asInt());
        }
        // graph inputs as the runtime was given them
        List<TensorRecord> ins = im.tensors().stream().filter(t -> t.kind() == TensorRecord.Kind.INPUT).toList();
        assertThat(ins).hasSize(expected.get("inputs").size());
        for (JsonNode in : expected.get("inputs")) {
            TensorRecord t = mine.get(in.get("name").asText());
            assertThat(t.kind()).isEqualTo(TensorRecord.Kind.INPUT);
            assertThat(t.type().id()).isEqualTo(in.get("dtype").asText());
            assertThat(t.shape().dims()).containsExactly(longs(in.get("shape")));
            assertThat(t.bytes()).isEqualTo(in.get("bytes").asLong());
        }
        // the reference figures: totals and max-live without any sharing
        assertThat(im.naiveTotal()).isEqualTo(figures.get("total_bytes_incl_graph_inputs").asLong());
        assertThat(im.unsharedPeakLive()).isEqualTo(figures.get("max_live_bytes_incl_graph_inputs").get("bytes").asLong());
    }

    private static long[] longs(JsonNode arr) {
        List<Long> l = new ArrayList<>();
        arr.forEach(n -> l.add(n.asLong()));
        return l.stream().mapToLong(Long::longValue).toArray();
    }
}
