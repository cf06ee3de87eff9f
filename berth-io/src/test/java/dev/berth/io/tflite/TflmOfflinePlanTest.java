package dev.berth.io.tflite;

import dev.berth.TestData;
import dev.berth.artifact.Plan;
import dev.berth.io.TargetJson;
import dev.berth.plan.Planner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tensorflow.lite.schema.MetadataT;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.ModelT;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The model written with Berth's plan as TFLM's offline plan: it reads back (through the same
 * verifier) with the plan's words, TFLM sees the same tensors, every buffer's data is byte for
 * byte the input's and starts 16-aligned in the file, every other field is the input's, and the
 * offsets never overlap two tensors TFLM considers live at the same step.
 */
class TflmOfflinePlanTest {
    static Stream<String> models() throws Exception {
        return TflmGroundTruthTest.models();
    }

    /**
     * Every buffer of {@code original} is in {@code written} with the same bytes and, if it has any,
     * its data starts at a multiple of 16 in the file (positions from the generated classes).
     */
    static void assertAlignedCopy(byte[] original, byte[] written, String what) {
        Model mi = Model.getRootAsModel(ByteBuffer.wrap(original).order(ByteOrder.LITTLE_ENDIAN));
        Model mo = Model.getRootAsModel(ByteBuffer.wrap(written).order(ByteOrder.LITTLE_ENDIAN));
        assertThat(mo.buffersLength()).isGreaterThanOrEqualTo(mi.buffersLength());
        for (int j = 0; j < mo.buffersLength(); j++) {
            ByteBuffer b = mo.buffers(j).dataAsByteBuffer();
            if (b != null && b.hasRemaining()) {
                assertThat(b.position() % 16).as(what + ": buffer " + j + " data at byte " + b.position()).isZero();
            }
            if (j >= mi.buffersLength()) {
                continue;
            }
            ByteBuffer a = mi.buffers(j).dataAsByteBuffer();
            if (a == null) {
                assertThat(b).as(what + ": buffer " + j).isNull();
                continue;
            }
            assertThat(b.remaining()).as(what + ": buffer " + j).isEqualTo(a.remaining());
            assertThat(b.equals(a)).as(what + ": buffer " + j + " bytes").isTrue();
        }
    }

    /**
     * Both files decoded by the generated object API and encoded again by one builder give the same
     * bytes once the offline plans (the metadata entries of that name, the written file's last buffer)
     * are taken out: every field the schema knows is equal.
     */
    static void assertSameModelButThePlan(byte[] original, byte[] written) {
        ModelT a = withoutPlan(ModelT.deserializeFromBinary(original), false);
        ModelT b = withoutPlan(ModelT.deserializeFromBinary(written), true);
        assertThat(b.getBuffers()).hasSize(a.getBuffers().length);
        assertThat(b.serializeToBinary()).as("every field but the plan").isEqualTo(a.serializeToBinary());
    }

    private static ModelT withoutPlan(ModelT m, boolean dropLastBuffer) {
        m.setMetadata(java.util.Arrays.stream(m.getMetadata())
                .filter(e -> !e.getName().equals(TfliteModel.OFFLINE_PLAN)).toArray(MetadataT[]::new));
        if (dropLastBuffer) {
            m.setBuffers(java.util.Arrays.copyOf(m.getBuffers(), m.getBuffers().length - 1));
        }
        return m;
    }

    /** The first multiple of 16 at which {@code whole} holds {@code part}, or -1. */
    static int findAligned(byte[] whole, byte[] part) {
        for (int at = 0; at + part.length <= whole.length; at += 16) {
            if (java.util.Arrays.equals(whole, at, at + part.length, part, 0, part.length)) {
                return at;
            }
        }
        return -1;
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
            byte[] twiceBytes = TflmOfflinePlan.write(again, back(out), offsets);
            assertAlignedCopy(out, twiceBytes, file + " planned twice");
            assertAlignedCopy(original, twiceBytes, file + " planned twice");
            assertSameModelButThePlan(out, twiceBytes);
            Model planned = Model.getRootAsModel(ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN));
            assertThat(twiceBytes.length - (long) out.length).as("nothing left to move: only a new head")
                    .isLessThanOrEqualTo(200 + 4L * (planned.buffersLength() + planned.metadataLength()
                            + m.model().tensorCount()));
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

        // every input buffer's bytes, its data 16-aligned in the file; the rest of the model field by field
        assertAlignedCopy(original, out, file);
        assertSameModelButThePlan(original, out);
        // the input itself is kept, unchanged, at a 16-aligned position (so is every table the writer did not
        // rewrite, fields this schema does not know included)
        assertThat(findAligned(out, original)).as("the input's bytes at a 16-aligned position").isNotNegative();
        Model mi = Model.getRootAsModel(ByteBuffer.wrap(original).order(ByteOrder.LITTLE_ENDIAN));
        Model mo = Model.getRootAsModel(ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN));
        assertThat(mo.version()).isEqualTo(mi.version());
        assertThat(mo.description()).isEqualTo(mi.description());
        // present fields stay present, absent ones absent (the object API cannot tell them apart)
        assertThat(mo.operatorCodesVector() == null).isEqualTo(mi.operatorCodesVector() == null);
        assertThat(mo.subgraphsVector() == null).isEqualTo(mi.subgraphsVector() == null);
        assertThat(mo.metadataBufferAsByteBuffer() == null).isEqualTo(mi.metadataBufferAsByteBuffer() == null);
        assertThat(mo.signatureDefsVector() == null).isEqualTo(mi.signatureDefsVector() == null);
        for (int j = 0; j < mi.buffersLength(); j++) {
            assertThat(mo.buffers(j).dataAsByteBuffer() == null).as("buffer " + j + " data present")
                    .isEqualTo(mi.buffers(j).dataAsByteBuffer() == null);
        }
        // the growth the contract allows: the head, and each moved buffer's bytes once more
        long moved = 0;
        int movedCount = 0;
        for (int j = 0; j < mi.buffersLength(); j++) {
            ByteBuffer d = mi.buffers(j).dataAsByteBuffer();
            if (d != null && d.hasRemaining() && d.position() % 16 != 0) {
                moved += d.remaining();
                movedCount++;
            }
        }
        long growth = out.length - (long) original.length;
        assertThat(growth).isGreaterThanOrEqualTo(moved)
                .isLessThanOrEqualTo(200 + 4L * (mi.buffersLength() + mi.metadataLength() + m.model().tensorCount())
                        + 27L * movedCount + moved);

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

    private static byte[] plannedWithNoOffsets(byte[] file) {
        TfliteModel m = back(file);
        int[] none = new int[m.tensorCount()];
        java.util.Arrays.fill(none, -1);
        return TflmOfflinePlan.write(ByteBuffer.wrap(file), "tiny.tflite", m, none);
    }

    /**
     * A tiny model whose buffers 1 and 2 have the same 40 bytes of data, not 16-aligned in the
     * file: one Buffer table for both ({@code sharedTable}) or two tables of one data vector.
     */
    private static byte[] sharedMisalignedBuffer(boolean sharedTable) {
        byte[] data = new byte[40];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (7 * i + 1);
        }
        for (int pad = 0; pad < 16; pad++) {
            int p = pad;
            byte[] file = TinyTflite.build(b -> {
                b.createByteVector(new byte[p]);
                int vec = org.tensorflow.lite.schema.Buffer.createDataVector(b, data);
                int table = org.tensorflow.lite.schema.Buffer.createBuffer(b, vec);
                return new int[] {table, sharedTable ? table : org.tensorflow.lite.schema.Buffer.createBuffer(b, vec)};
            }, TinyTflite.Graph.of(TinyTflite.Op.fc()));
            Model m = Model.getRootAsModel(ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN));
            if (m.buffers(1).dataAsByteBuffer().position() % 16 != 0) {
                return file;
            }
        }
        throw new AssertionError("no padding made the data misaligned");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void dataSharedByTwoBuffersMovesOnce(boolean sharedTable) {
        byte[] in = sharedMisalignedBuffer(sharedTable);
        Model mi = Model.getRootAsModel(ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN));
        assertThat(mi.buffers(2).dataAsByteBuffer().position()).isEqualTo(mi.buffers(1).dataAsByteBuffer().position());
        byte[] out = plannedWithNoOffsets(in);
        assertAlignedCopy(in, out, "tiny");
        assertSameModelButThePlan(in, out);
        Model mo = Model.getRootAsModel(ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN));
        assertThat(mo.buffers(2).dataAsByteBuffer().position()).as("one copy of the shared data")
                .isEqualTo(mo.buffers(1).dataAsByteBuffer().position());
        assertThat(findAligned(out, in)).isNotNegative();
        assertThat(out.length - in.length).isLessThanOrEqualTo(200 + 4 * (3 + 1) + 27 + 40);
        assertThat(plannedWithNoOffsets(in)).isEqualTo(out);
    }

    /**
     * A buffer whose data lies outside the FlatBuffer ({@code offset}, {@code size}: counted from the
     * file's start, so a copy behind a new head would point elsewhere) is refused, naming the buffer.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"1, 4096", "2, 64"})
    void aBufferWithDataOutsideTheFlatbufferIsRefused(int field, long value) {
        byte[] in = TinyTflite.build(b -> {
            b.startTable(3);
            b.addLong(field, value, 0);
            return new int[] {b.endTable()};
        }, TinyTflite.Graph.of(TinyTflite.Op.fc()));
        assertThat(back(in).bufferBytes()).hasSize(2);
        assertThatThrownBy(() -> plannedWithNoOffsets(in))
                .isInstanceOfSatisfying(dev.berth.failure.BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(dev.berth.failure.Category.INVALID_INPUT);
                    assertThat(e.getMessage()).contains("buffer 1 has its " + (field == 1 ? "offset" : "size")
                            + " field set (" + value + ")").contains("outside the FlatBuffer");
                });
    }
}
