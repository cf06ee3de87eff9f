package dev.berth.io.tflite;

import dev.berth.artifact.Plan;
import dev.berth.io.TargetJson;
import dev.berth.plan.Planner;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.berth.io.InvalidAt.assertInvalidAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link TflmGreedyPlanner} and {@link TflmOfflinePlan} are public: a caller's bad argument (a
 * negative size, an offline offset below -1, too many buffers, an offline plan of another length
 * than the model's tensors, a plan of another model) is {@code invalid-input} naming it, never an
 * IllegalArgumentException or IllegalStateException.
 */
class TflmArgumentsTest {
    private static final byte[] TINY = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.fc()));

    private static ImportedTflite tiny() {
        return TfliteImport.read(ByteBuffer.wrap(TINY), "tiny.tflite", TargetJson.load("tflm"),
                TfliteImport.Options.of());
    }

    @Test
    void aBufferOfNegativeSizeOrOffsetBelowOnlineIsInvalidInput() {
        assertInvalidAt(() -> new TflmGreedyPlanner.Buffer(-16, 0, 1, TflmGreedyPlanner.ONLINE), "size", "got -16");
        assertInvalidAt(() -> new TflmGreedyPlanner.Buffer(16, 0, 1, -2), "offlineOffset",
                "offlineOffset: an offset 0..2^63-1, or -1 for a buffer TFLM plans online, got -2");
        assertThat(new TflmGreedyPlanner.Buffer(0, 0, 1, 0).size()).isZero();
        assertInvalidAt(() -> new TflmGreedyPlanner.Buffer(16, 5, 2, TflmGreedyPlanner.ONLINE), "last", "got 2");
        assertThat(new TflmGreedyPlanner.Buffer(16, 3, 3, TflmGreedyPlanner.ONLINE).last()).isEqualTo(3);
    }

    @Test
    void moreBuffersThanThePolicyRunsForIsInvalidInput() {
        List<TflmGreedyPlanner.Buffer> many = new ArrayList<>();
        for (int i = 0; i <= TflmGreedyPlanner.MAX_BUFFERS; i++) {
            many.add(new TflmGreedyPlanner.Buffer(16, i, i, TflmGreedyPlanner.ONLINE));
        }
        assertInvalidAt(() -> TflmGreedyPlanner.plan(many), "buffers", "buffers: 16385 buffers, more than the 16384");
        assertThat(TflmGreedyPlanner.plan(many.subList(0, TflmGreedyPlanner.MAX_BUFFERS)).head()).isEqualTo(16);
        assertThatThrownBy(() -> TflmGreedyPlanner.plan(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("buffers");
    }

    @Test
    void anOfflinePlanOfAnotherLengthIsInvalidInput() {
        ImportedTflite m = tiny();
        int tensors = m.view().entries().size();
        assertInvalidAt(() -> TflmGreedyPlanner.ofModel(m.view(), new int[tensors + 1], List.of()), "offline",
                "offline: " + (tensors + 1) + " offsets, but the model has " + tensors + " tensors");
        int[] none = new int[tensors];
        Arrays.fill(none, -1);
        assertThat(TflmGreedyPlanner.ofModel(m.view(), none, List.of()).head()).isPositive();
        assertInvalidAt(() -> TflmOfflinePlan.write(ByteBuffer.wrap(TINY), "tiny.tflite", m.model(), new int[tensors + 1]),
                "offsets", "offsets: " + (tensors + 1) + " offsets, but tiny.tflite has " + tensors + " tensors");
        int[] bad = none.clone();
        bad[tensors - 1] = -7;
        assertInvalidAt(() -> TflmOfflinePlan.write(ByteBuffer.wrap(TINY), "tiny.tflite", m.model(), bad),
                "offsets[" + (tensors - 1) + "]", "got -7");
    }

    @Test
    void aPlanOfAnotherModelIsInvalidInput() {
        ImportedTflite m = tiny();
        Plan other = Planner.plan(m.target(), Workload.builder("other").build(), Planner.Options.defaults()).plan();
        assertInvalidAt(() -> TflmOfflinePlan.offsets(m, other), "plan", "has no buffer in space arena",
                "the plan is not one of this model");
        Plan own = Planner.plan(m.target(), m.workload(), Planner.Options.defaults()).plan();
        assertThat(TflmOfflinePlan.offsets(m, own)).hasSize(m.view().entries().size());
    }
}
