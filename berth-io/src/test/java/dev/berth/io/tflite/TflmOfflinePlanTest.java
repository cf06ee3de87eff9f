package dev.berth.io.tflite;

import dev.berth.TestData;
import dev.berth.artifact.Plan;
import dev.berth.io.TargetJson;
import dev.berth.plan.Planner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tensorflow.lite.schema.Model;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The model written with Berth's plan as TFLM's offline plan: it reads back (through the same
 * verifier) with the plan's words, TFLM sees the same tensors, every buffer's data is byte for
 * byte the input's at the same alignment modulo 16, and the offsets never overlap two tensors TFLM
 * considers live at the same step.
 */
class TflmOfflinePlanTest {
    static Stream<String> models() throws Exception {
        return TflmGroundTruthTest.models();
    }

    private static TfliteModel back(byte[] bytes) {
        return TfliteReader.read(ByteBuffer.wrap(bytes), "out.tflite");
    }

    /**
     * Vela's plan in person_detect_vela puts the input, the output and both scratch tensors at
     * offset 0 although TFLM's lifetimes have them live together: every pair of the four is named.
     */
    @org.junit.jupiter.api.Test
    void velasPlanOverlapsTheFourTensorsItPutsAtZero() {
        ImportedTflite m = TflmGroundTruthTest.load("person_detect_vela.tflite");
        List<TflmView.Overlap> overlaps = m.view().offlineOverlaps(100);
        assertThat(overlaps).extracting(o -> o.a().label() + "&" + o.b().label())
                .containsExactly("t0&t3", "t0&t4", "t0&t5", "t3&t4", "t3&t5", "t4&t5");
        assertThat(overlaps).allSatisfy(o -> {
            assertThat(o.a().offlineOffset()).isZero();
            assertThat(o.b().offlineOffset()).isZero();
        });
        assertThat(m.view().offlineOverlaps(2)).hasSize(2);
    }

    @ParameterizedTest
    @MethodSource("models")
    void theWrittenModelHoldsThePlanAndEverythingElse(String file) throws Exception {
        Path in = TestData.require("models/tflite/" + file);
        byte[] original = Files.readAllBytes(in);
        ImportedTflite m = TflmGroundTruthTest.load(file);
        Plan plan = Planner.plan(m.target(), m.workload(), Planner.Options.defaults()).plan();
        int[] offsets = TflmOfflinePlan.offsets(m, plan);
        byte[] out = TflmOfflinePlan.write(in, m.model(), offsets);
        assertThat(TflmOfflinePlan.write(in, m.model(), offsets)).as("same plan, same bytes").isEqualTo(out);
        // planning the written model again replaces its entry (one entry of the name, the new words); the
        // old plan's buffer stays, unreferenced, as every byte of an input does
        Path again = Files.createTempFile("berth-offline", ".tflite");
        try {
            Files.write(again, out);
            TfliteModel twice = back(TflmOfflinePlan.write(again, back(out), offsets));
            assertThat(twice.metadata()).hasSize(back(out).metadata().size());
            assertThat(twice.offlinePlan().orElseThrow()).containsExactly(back(out).offlinePlan().orElseThrow());
            assertThat(twice.bufferBytes()).hasSize(back(out).bufferBytes().length + 1);
        } finally {
            Files.delete(again);
        }
        assertThat(Files.readAllBytes(in)).as("the input is unchanged").isEqualTo(original);

        TfliteModel back = TfliteReader.read(ByteBuffer.wrap(out), "out.tflite");
        int[] words = back.offlinePlan().orElseThrow();
        assertThat(words[0]).isZero();
        assertThat(words[1]).isEqualTo(m.model().subgraphs().size());
        assertThat(words[2]).isEqualTo(m.model().tensorCount());
        assertThat(java.util.Arrays.copyOfRange(words, 3, words.length)).containsExactly(offsets);
        assertThat(back.metadata().stream().filter(e -> e.name().equals(TfliteModel.OFFLINE_PLAN))).hasSize(1);
        assertThat(back.metadata()).hasSize(m.model().metadata().size()
                + (m.model().offlinePlan().isPresent() ? 0 : 1));

        // TFLM's view of the new model: the same tensors, sizes and lifetimes; planned as before but for
        // variables, which Berth leaves to TFLM (-1)
        TflmView after = TflmView.of(back, "out.tflite");
        List<TflmView.Entry> before = m.view().entries();
        for (int i = 0; i < before.size(); i++) {
            TflmView.Entry a = before.get(i);
            TflmView.Entry b = after.entries().get(i);
            assertThat(b.bytes()).isEqualTo(a.bytes());
            assertThat(b.firstUsed()).isEqualTo(a.firstUsed());
            assertThat(b.lastUsed()).isEqualTo(a.lastUsed());
            assertThat(b.planned()).isEqualTo(a.planned() && !(a.variable() && a.offlineOffset() >= 0));
            assertThat(b.offlineOffset()).isEqualTo(offsets[i]);
            assertThat(offsets[i] >= 0).isEqualTo(b.planned());
        }

        assertThat(after.offlineOverlaps(10)).as("Berth's offline plan overlaps no two tensors live together")
                .isEmpty();

        // every input buffer's bytes, at the same alignment modulo 16
        Model mi = Model.getRootAsModel(ByteBuffer.wrap(original).order(ByteOrder.LITTLE_ENDIAN));
        Model mo = Model.getRootAsModel(ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN));
        assertThat(mo.buffersLength()).isEqualTo(mi.buffersLength() + 1);
        for (int j = 0; j < mi.buffersLength(); j++) {
            ByteBuffer a = mi.buffers(j).dataAsByteBuffer();
            ByteBuffer b = mo.buffers(j).dataAsByteBuffer();
            if (a == null) {
                assertThat(b).isNull();
                continue;
            }
            assertThat(b.remaining()).isEqualTo(a.remaining());
            assertThat(b.position() % 16).isEqualTo(a.position() % 16);
            assertThat(b.equals(a)).as("buffer " + j).isTrue();
        }
        assertThat(mo.version()).isEqualTo(mi.version());
        assertThat(mo.subgraphsLength()).isEqualTo(mi.subgraphsLength());
        assertThat(mo.operatorCodesLength()).isEqualTo(mi.operatorCodesLength());
        assertThat(mo.description()).isEqualTo(mi.description());

        // no two tensors live at one step (TFLM's lifetimes) share bytes of the head; the head is Berth's
        long head = 0;
        for (int i = 0; i < before.size(); i++) {
            if (offsets[i] < 0) {
                continue;
            }
            TflmView.Entry a = before.get(i);
            long aEnd = offsets[i] + (a.bytes() + 15) / 16 * 16;
            head = Math.max(head, aEnd);
            for (int k = i + 1; k < before.size(); k++) {
                TflmView.Entry b = before.get(k);
                if (offsets[k] < 0) {
                    continue;
                }
                boolean together = Math.max(a.firstUsed(), b.firstUsed()) <= Math.min(a.lastUsed(), b.lastUsed());
                long bEnd = offsets[k] + (b.bytes() + 15) / 16 * 16;
                boolean share = offsets[i] < bEnd && offsets[k] < aEnd;
                assertThat(together && share).as(file + ": " + a.label() + " and " + b.label()).isFalse();
            }
        }
        assertThat(head).isEqualTo(plan.metrics(m.target().space("arena", "test")).highWater());
    }
}
