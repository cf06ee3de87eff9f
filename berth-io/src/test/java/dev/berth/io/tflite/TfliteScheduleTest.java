package dev.berth.io.tflite;

import dev.berth.TestData;
import dev.berth.io.TargetJson;
import dev.berth.schedule.Graph;
import dev.berth.schedule.Role;
import dev.berth.target.Target;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.berth.io.InvalidAt.assertInvalidAt;
import static org.assertj.core.api.Assertions.assertThat;

/** The TFLite adapter's cases the test models do not hold: control flow, scratch buffers, kept chains. */
class TfliteScheduleTest {
    private static final Target TFLM = TargetJson.load("tflm");

    @Test
    void aModelWithControlFlowHasNoGraph() {
        byte[] f = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.whileOf(1, 2), TinyTflite.Op.fc()),
                TinyTflite.Graph.of(TinyTflite.Op.fc()), TinyTflite.Graph.of(TinyTflite.Op.fc()));
        ImportedTflite m = TfliteImport.read(ByteBuffer.wrap(f), "cf.tflite", TFLM, TfliteImport.Options.of());
        assertInvalidAt(() -> TfliteSchedule.graph(m), "operators[0]", "cf: operator 0 (WHILE) runs other subgraphs",
                "with control flow is not built");
    }

    @Test
    void scratchBuffersStayWithTheirOperators() {
        byte[] f = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.fc(), TinyTflite.Op.fc(), TinyTflite.Op.fc()));
        // TFLM's steps: 0 the input, 1..3 the operators
        List<TflmScratch> scratch = List.of(new TflmScratch(100, 2, 2), new TflmScratch(50, 1, 3));
        ImportedTflite m = TfliteImport.read(ByteBuffer.wrap(f), "chain.tflite", TFLM,
                TfliteImport.Options.of().withScratch(scratch));
        Graph g = TfliteSchedule.graph(m);
        Map<String, Role> roles = new TreeMap<>();
        g.buffers().forEach(b -> roles.put(b.name(), b.role()));
        assertThat(roles).containsExactlyInAnyOrderEntriesOf(Map.of("t0", Role.INPUT, "t1", Role.INTERMEDIATE,
                "t2", Role.INTERMEDIATE, "t3", Role.OUTPUT, "scratch0", Role.INTERMEDIATE, "scratch1", Role.INTERMEDIATE));
        assertThat(g.operators().stream().map(Graph.Operator::name))
                .containsExactly("0:FULLY_CONNECTED", "1:FULLY_CONNECTED", "2:FULLY_CONNECTED");
        assertThat(g.operators().get(0).writes()).containsExactly("t1", "scratch1");
        assertThat(g.operators().get(1).writes()).containsExactly("t2", "scratch0");
        assertThat(g.operators().get(2).reads()).containsExactly("t2", "scratch1");
        assertThat(g.keepOrder()).isEmpty();
        assertThat(g.alignment()).isEqualTo(16);
    }

    @Test
    void operatorsTouchingVariablesKeepTheirOrder() {
        ImportedTflite m = TfliteImport.read(TestData.require("models/tflite/keyword_scrambled_8bit.tflite"), TFLM,
                TfliteImport.Options.of());
        TfliteModel.Subgraph main = m.model().subgraphs().get(0);
        List<String> touching = new ArrayList<>();
        for (TfliteModel.Operator op : main.operators()) {
            boolean variable = false;
            for (int[] list : new int[][] {op.inputs(), op.outputs()}) {
                for (int t : list) {
                    variable |= t >= 0 && main.tensors().get(t).variable();
                }
            }
            if (variable) {
                touching.add(op.index() + ":" + op.opName());
            }
        }
        assertThat(touching).hasSizeGreaterThan(1);
        Graph g = TfliteSchedule.graph(m);
        assertThat(g.keepOrder()).containsExactly(touching);
        // the variables live in the persistent space, not in the graph of the arena
        assertThat(g.buffers()).noneMatch(b -> b.role() == Role.VARIABLE);
    }
}
