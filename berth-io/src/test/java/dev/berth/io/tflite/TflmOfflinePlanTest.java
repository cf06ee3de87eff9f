package dev.berth.io.tflite;

import dev.berth.TestData;
import dev.berth.artifact.Plan;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.io.TargetJson;
import dev.berth.plan.Planner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tensorflow.lite.schema.MetadataT;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.ModelT;
import org.tensorflow.lite.schema.SubGraphT;
import org.tensorflow.lite.schema.TensorT;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
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
     * The buffers of a model that only offline plans refer to (metadata entries of that name; no
     * tensor, other entry or {@code metadata_buffer}), by index.
     */
    static Set<Integer> planOnly(ModelT m) {
        Set<Integer> plan = new TreeSet<>();
        Set<Integer> other = new HashSet<>();
        for (SubGraphT g : m.getSubgraphs()) {
            for (TensorT t : g.getTensors()) {
                other.add((int) t.getBuffer());
            }
        }
        for (MetadataT e : m.getMetadata()) {
            (e.getName().equals(TfliteModel.OFFLINE_PLAN) ? plan : other).add((int) e.getBuffer());
        }
        for (int b : m.getMetadataBuffer()) {
            other.add(b);
        }
        plan.removeAll(other);
        return plan;
    }

    /**
     * Every buffer of {@code original} but the plan's ({@link #planOnly}) is in {@code written}, in
     * order, with the same bytes; every non-empty buffer's data in {@code written} starts at a
     * multiple of 16 in the file (positions from the generated classes).
     */
    static void assertAlignedCopy(byte[] original, byte[] written, String what) {
        Model mi = Model.getRootAsModel(ByteBuffer.wrap(original).order(ByteOrder.LITTLE_ENDIAN));
        Model mo = Model.getRootAsModel(ByteBuffer.wrap(written).order(ByteOrder.LITTLE_ENDIAN));
        List<Integer> a = kept(mi.buffersLength(), planOnly(ModelT.deserializeFromBinary(original)));
        List<Integer> b = kept(mo.buffersLength(), planOnly(ModelT.deserializeFromBinary(written)));
        assertThat(b).as(what + ": the buffers but the plan's").hasSameSizeAs(a);
        for (int j = 0; j < mo.buffersLength(); j++) {
            ByteBuffer d = mo.buffers(j).dataAsByteBuffer();
            if (d != null && d.hasRemaining()) {
                assertThat(d.position() % 16).as(what + ": buffer " + j + " data at byte " + d.position()).isZero();
            }
        }
        for (int k = 0; k < a.size(); k++) {
            ByteBuffer x = mi.buffers(a.get(k)).dataAsByteBuffer();
            ByteBuffer y = mo.buffers(b.get(k)).dataAsByteBuffer();
            String w = what + ": buffer " + a.get(k) + " (written as " + b.get(k) + ")";
            if (x == null) {
                assertThat(y).as(w).isNull();
                continue;
            }
            assertThat(y.remaining()).as(w).isEqualTo(x.remaining());
            assertThat(y.equals(x)).as(w + " bytes").isTrue();
        }
    }

    private static List<Integer> kept(int n, Set<Integer> dropped) {
        return IntStream.range(0, n).filter(j -> !dropped.contains(j)).boxed().toList();
    }

    /**
     * Both files decoded by the generated object API and encoded again by one builder give the same
     * bytes once the offline plans (the metadata entries of that name, the buffers only they refer
     * to, every later buffer index moved down) are taken out: every field the schema knows is equal.
     */
    static void assertSameModelButThePlan(byte[] original, byte[] written) {
        ModelT a = withoutPlan(ModelT.deserializeFromBinary(original));
        ModelT b = withoutPlan(ModelT.deserializeFromBinary(written));
        assertThat(b.getBuffers()).hasSize(a.getBuffers().length);
        assertThat(b.serializeToBinary()).as("every field but the plan").isEqualTo(a.serializeToBinary());
    }

    private static ModelT withoutPlan(ModelT m) {
        Set<Integer> plan = planOnly(m);
        int[] to = new int[m.getBuffers().length];
        List<org.tensorflow.lite.schema.BufferT> buffers = new ArrayList<>();
        for (int j = 0; j < to.length; j++) {
            to[j] = plan.contains(j) ? -1 : buffers.size();
            if (!plan.contains(j)) {
                buffers.add(m.getBuffers()[j]);
            }
        }
        m.setBuffers(buffers.toArray(org.tensorflow.lite.schema.BufferT[]::new));
        for (SubGraphT g : m.getSubgraphs()) {
            for (TensorT t : g.getTensors()) {
                t.setBuffer(to[(int) t.getBuffer()]);
            }
        }
        m.setMetadata(Arrays.stream(m.getMetadata())
                .filter(e -> !e.getName().equals(TfliteModel.OFFLINE_PLAN)).toArray(MetadataT[]::new));
        for (MetadataT e : m.getMetadata()) {
            e.setBuffer(to[(int) e.getBuffer()]);
        }
        m.setMetadataBuffer(Arrays.stream(m.getMetadataBuffer()).map(j -> to[j]).toArray());
        return m;
    }

    /**
     * The growth the contract allows: the plan's metadata entry (its words, their length, the
     * entry's table, name and Buffer table: 128 bytes at most, and 16 of alignment) and 16 bytes of
     * alignment per buffer.
     */
    static long allowedGrowth(byte[] written) {
        Model mo = Model.getRootAsModel(ByteBuffer.wrap(written).order(ByteOrder.LITTLE_ENDIAN));
        TfliteModel m = back(written);
        return 4L * (3 + m.tensorCount()) + 4 + 128 + 16 + 16L * mo.buffersLength();
    }

    /** The buffers nothing refers to (no tensor, metadata entry or {@code metadata_buffer}; not buffer 0). */
    static Set<Integer> unreferenced(byte[] file) {
        ModelT m = ModelT.deserializeFromBinary(file);
        Set<Integer> none = new TreeSet<>();
        for (int j = 1; j < m.getBuffers().length; j++) {
            none.add(j);
        }
        for (SubGraphT g : m.getSubgraphs()) {
            for (TensorT t : g.getTensors()) {
                none.remove((int) t.getBuffer());
            }
        }
        for (MetadataT e : m.getMetadata()) {
            none.remove((int) e.getBuffer());
        }
        for (int b : m.getMetadataBuffer()) {
            none.remove(b);
        }
        return none;
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
        // planning the written model again gives the same bytes: its entry replaced in place, nothing left behind
        Path again = Files.createTempFile("berth-offline", ".tflite");
        try {
            Files.write(again, out);
            assertThat(TflmOfflinePlan.write(again, back(out), offsets)).as("re-planned").isEqualTo(out);
        } finally {
            Files.delete(again);
        }
        assertThat(Files.readAllBytes(in)).as("the input is unchanged").isEqualTo(original);

        TfliteModel back = TfliteReader.read(ByteBuffer.wrap(out), "out.tflite");
        int[] words = back.offlinePlan().orElseThrow();
        assertThat(words[0]).isZero();
        assertThat(words[1]).isEqualTo(m.model().subgraphs().size());
        assertThat(words[2]).isEqualTo(m.model().tensorCount());
        assertThat(Arrays.copyOfRange(words, 3, words.length)).containsExactly(offsets);
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
        Model mi = Model.getRootAsModel(ByteBuffer.wrap(original).order(ByteOrder.LITTLE_ENDIAN));
        Model mo = Model.getRootAsModel(ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN));
        assertThat(mo.version()).isEqualTo(mi.version());
        assertThat(mo.description()).isEqualTo(mi.description());
        // present fields stay present, absent ones absent (the object API cannot tell them apart)
        assertThat(mo.operatorCodesVector() == null).isEqualTo(mi.operatorCodesVector() == null);
        assertThat(mo.subgraphsVector() == null).isEqualTo(mi.subgraphsVector() == null);
        assertThat(mo.metadataBufferAsByteBuffer() == null).isEqualTo(mi.metadataBufferAsByteBuffer() == null);
        assertThat(mo.signatureDefsVector() == null).isEqualTo(mi.signatureDefsVector() == null);
        Set<Integer> planned = planOnly(ModelT.deserializeFromBinary(out));
        assertThat(planned).as("one buffer for the plan").hasSize(1);
        List<Integer> keptIn = kept(mi.buffersLength(), planOnly(ModelT.deserializeFromBinary(original)));
        List<Integer> keptOut = kept(mo.buffersLength(), planned);
        for (int k = 0; k < keptIn.size(); k++) {
            assertThat(mo.buffers(keptOut.get(k)).dataAsByteBuffer() == null).as("buffer " + keptIn.get(k)
                    + " data present").isEqualTo(mi.buffers(keptIn.get(k)).dataAsByteBuffer() == null);
        }
        // no buffer nothing refers to but those the input had; no byte that no object of the model covers
        // but the padding before an aligned one; the growth the contract allows
        assertThat(unreferenced(out)).as("unreferenced buffers").containsExactlyElementsOf(unreferenced(original)
                .stream().map(j -> keptOut.get(keptIn.indexOf(j))).toList());
        FlatBufferCoverage.assertEveryByteCovered(out, file);
        assertThat(out.length - (long) original.length).as("growth").isLessThanOrEqualTo(allowedGrowth(out));

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
        Arrays.fill(none, -1);
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
        FlatBufferCoverage.assertEveryByteCovered(out, "tiny");
        assertThat(out.length - (long) in.length).isLessThanOrEqualTo(allowedGrowth(out));
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
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    assertThat(e.getMessage()).contains("buffer 1 has its " + (field == 1 ? "offset" : "size")
                            + " field set (" + value + ")").contains("outside the FlatBuffer");
                });
    }

    /** What a rebuild cannot keep is refused, never dropped: a field or a union type the schema does not define. */
    @org.junit.jupiter.api.Test
    void aFieldOrAUnionTypeTheSchemaDoesNotDefineIsRefused() {
        byte[] field = TinyTflite.build(b -> {
            b.startTable(6);
            b.addInt(5, 7, 0);
            return new int[] {b.endTable()};
        }, TinyTflite.Graph.of(TinyTflite.Op.fc()));
        assertThatThrownBy(() -> plannedWithNoOffsets(field))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    assertThat(e.getMessage()).contains("buffer 1 (a Buffer table) has field 5, which the TFLite "
                            + "schema Berth knows does not define (Buffer has 3 fields)");
                });
        byte[] union = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.fcWithOptionsType(250)));
        assertThatThrownBy(() -> plannedWithNoOffsets(union))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    assertThat(e.getMessage()).contains("Model.subgraphs[0].operators[0].builtin_options holds a "
                            + "table of union BuiltinOptions whose type is 250, which the TFLite schema Berth knows "
                            + "does not define");
                });
        byte[] known = TinyTflite.build(TinyTflite.Graph.of(
                TinyTflite.Op.fcWithOptionsType(org.tensorflow.lite.schema.BuiltinOptions.WhileOptions)));
        byte[] out = plannedWithNoOffsets(known);
        assertSameModelButThePlan(known, out);
        Model mo = Model.getRootAsModel(ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN));
        assertThat(mo.subgraphs(0).operators(0).builtinOptionsType())
                .isEqualTo(org.tensorflow.lite.schema.BuiltinOptions.WhileOptions);
    }

    private static org.tensorflow.lite.schema.BufferT bufferOf(int... bytes) {
        org.tensorflow.lite.schema.BufferT b = new org.tensorflow.lite.schema.BufferT();
        int[] data = bytes.clone();
        b.setData(data);
        return b;
    }

    private static MetadataT entry(String name, int buffer) {
        MetadataT e = new MetadataT();
        e.setName(name);
        e.setBuffer(buffer);
        return e;
    }

    /**
     * A model with two plans: TFLM reads the last, which gets the new words in its place and its
     * buffer; the first entry goes, and so does its buffer, which nothing else refers to (the
     * buffer after it, which another entry refers to, moves down one); planning again gives the
     * same bytes.
     */
    @org.junit.jupiter.api.Test
    void ofTwoPlansTheLastIsReplacedInPlaceAndTheOthersBufferDropped() throws Exception {
        ModelT m = ModelT.deserializeFromBinary(Files.readAllBytes(TestData.require("models/tflite/hello_world_int8.tflite")));
        int n = m.getBuffers().length;
        List<org.tensorflow.lite.schema.BufferT> buffers = new ArrayList<>(List.of(m.getBuffers()));
        buffers.add(bufferOf(0, 0, 0, 0, 1, 0, 0, 0));
        buffers.add(bufferOf(1, 2, 3, 4, 5));
        buffers.add(bufferOf(0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0));
        m.setBuffers(buffers.toArray(org.tensorflow.lite.schema.BufferT[]::new));
        List<MetadataT> meta = new ArrayList<>(List.of(m.getMetadata()));
        meta.add(entry(TfliteModel.OFFLINE_PLAN, n));
        meta.add(entry("other", n + 1));
        meta.add(entry(TfliteModel.OFFLINE_PLAN, n + 2));
        m.setMetadata(meta.toArray(MetadataT[]::new));
        byte[] in = m.serializeToBinary();
        byte[] out = plannedWithNoOffsets(in);
        ModelT o = ModelT.deserializeFromBinary(out);
        assertThat(o.getBuffers()).hasSize(n + 2);
        assertThat(o.getMetadata()).extracting(MetadataT::getName).containsExactly("min_runtime_version",
                "CONVERSION_METADATA", "other", TfliteModel.OFFLINE_PLAN);
        assertThat(o.getMetadata()).extracting(MetadataT::getBuffer).containsExactly(11L, 12L, (long) n, n + 1L);
        assertThat(o.getBuffers()[n].getData()).containsExactly(1, 2, 3, 4, 5);
        assertThat(back(out).offlinePlan().orElseThrow()).hasSize(3 + back(in).tensorCount());
        assertSameModelButThePlan(in, out);
        assertAlignedCopy(in, out, "two plans");
        FlatBufferCoverage.assertEveryByteCovered(out, "two plans");
        assertThat(unreferenced(out)).isEmpty();
        assertThat(plannedWithNoOffsets(out)).as("planned again").isEqualTo(out);
    }
}
