package dev.berth.io.onnx;

import dev.berth.TestData;
import dev.berth.io.TargetJson;
import dev.berth.io.model.InputFix;
import dev.berth.io.onnx.ImportedGraph.Role;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The imported graph is a value: it holds copies of the tables it was given, in their order, none
 * of which can be changed afterwards, and an If output's root is found through chains of aliases.
 */
class ImportedGraphTest {
    @Test
    void itCopiesWhatItIsGivenAndKeepsTheOrder() {
        Map<String, String> aliases = new LinkedHashMap<>();
        aliases.put("z", "y");
        aliases.put("y", "x");
        aliases.put("a", "x");
        Map<String, Role> roles = new HashMap<>(Map.of("x", Role.ACTIVATION));
        Map<String, Integer> producer = new HashMap<>(Map.of("x", 0));
        List<ImportedModel.StepInfo> steps = new ArrayList<>(List.of(
                new ImportedModel.StepInfo(0, "n0", "Relu", List.of("in"), List.of("x"))));
        List<String> outputs = new ArrayList<>(List.of("z"));
        ImportedGraph g = new ImportedGraph(13, new LinkedHashMap<>(), roles, aliases, producer, steps, outputs,
                new ArrayList<>());
        aliases.put("b", "x");
        roles.put("y", Role.WEIGHT);
        producer.clear();
        steps.clear();
        outputs.add("b");
        assertThat(g.aliases().keySet()).containsExactly("z", "y", "a");
        assertThat(g.roles()).containsOnlyKeys("x");
        assertThat(g.producer()).containsEntry("x", 0);
        assertThat(g.steps()).hasSize(1);
        assertThat(g.outputs()).containsExactly("z");
        assertThat(g.root("z")).isEqualTo("x");
        assertThat(g.root("a")).isEqualTo("x");
        assertThat(g.root("x")).isEqualTo("x");
        assertThat(g.root("b")).isEqualTo("b");
        assertThatThrownBy(() -> g.aliases().put("c", "x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> g.tensors().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> g.steps().add(g.steps().get(0))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> g.foldedIfs().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theImporterReturnsTheGraphTheModelIsBuiltFrom() {
        Path file = TestData.root().resolve("testdata/models/ch_ppocr_mobile_v2.0_cls_infer.onnx");
        ImportedGraph g = GraphImporter.run(OnnxReader.read(file), file.toString(), InputFix.parse(List.of("x=1x3x48x192")));
        ImportedModel m = OnnxImport.read(file, TargetJson.load("npu-ref"), OnnxImport.Options.of("x=1x3x48x192"));
        assertThat(g.steps()).isEqualTo(m.steps());
        assertThat(g.outputs()).isEqualTo(m.outputs());
        assertThat(g.opset()).isEqualTo(m.opset());
        // the model's records list the graph's tensors in the graph's order (weights nothing reads left out)
        List<String> order = new ArrayList<>(g.tensors().keySet());
        List<String> records = m.tensors().stream().map(TensorRecord::name).toList();
        assertThat(order).containsSubsequence(records);
        assertThatThrownBy(() -> g.tensors().remove(order.get(0))).isInstanceOf(UnsupportedOperationException.class);
    }
}
