package dev.berth.io.tflite;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.berth.arith.Checked;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.io.model.FileErrors;
import org.tensorflow.lite.schema.Buffer;
import org.tensorflow.lite.schema.Metadata;
import org.tensorflow.lite.schema.Model;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a plan into a copy of the model as TFLM's offline memory plan: a metadata entry
 * {@code OfflineMemoryAllocation} whose buffer holds little-endian int32 words
 * {@code [0 (format version), subgraphs, n, offset_0 ... offset_{n-1}]}, one offset per tensor of
 * every subgraph in order, -1 for every tensor TFLM plans itself or does not plan (constants,
 * variables, tensors of no bytes).
 *
 * <p>The copy is the input rebuilt ({@link TfliteRebuild}): every table, vector, string and option
 * the schema defines, with the same contents, each written once, every buffer's data 16-aligned
 * (the schema's {@code force_align: 16}) and nothing else. The model's buffers are the input's in
 * their order and its metadata entries the input's, but for the plan: the last entry of that name
 * (the one TFLM reads) gets the new words, in its place, in its buffer when nothing else refers
 * to that buffer, else in a new last buffer; other entries of that name are dropped, and so are
 * their buffers if nothing else refers to them (later buffers and every index to them move down);
 * a model without the entry gets one, last, with a new last buffer. So planning a written model
 * again gives the bytes planning the input gives. The object API is never used: it would turn
 * absent vectors into empty ones, which TFLM rejects. Before returning, the written bytes are
 * read back and checked: the plan's words, the tensors, every buffer's bytes equal to the input's,
 * its data 16-aligned, the operators in the order given.
 *
 * <p>With an operator order ({@link TfliteOperatorOrder}) other than the file's, subgraph 0's
 * {@code operators} vector lists the same operator tables in that order and nothing else changes;
 * TFLM then runs them in that order, takes every tensor's lifetime from it and applies every
 * offset as given (its greedy planner treats offline offsets as fixed and never checks them
 * against one another, which is how an output written over an input that dies there, at the
 * input's offset, reaches TFLM).
 */
public final class TflmOfflinePlan {
    /** The format version Berth writes (TFLM ignores it; Vela writes 0 too). */
    static final int VERSION = 0;

    private TflmOfflinePlan() {
    }

    /**
     * The offsets TFLM's offline plan gets from Berth's plan: planned, non-variable tensors in the
     * arena, and the tensors whose offsets in the file's plan Berth keeps ({@link ImportedTflite#kept})
     * at those offsets. A plan without a buffer for one of them (a plan of another model) is {@code invalid-input}
     * naming {@code plan}.
     */
    public static int[] offsets(ImportedTflite m, Plan plan) {
        Require.nonNull(m, "m");
        Require.nonNull(plan, "plan");
        Map<String, PlannedBuffer> at = new HashMap<>();
        for (PlannedBuffer b : plan.buffers()) {
            if (b.space().equals(m.arenaSpace())) {
                at.put(b.name(), b);
            }
        }
        List<TflmView.Entry> entries = m.view().entries();
        int[] kept = m.keptOffsets();
        int[] out = new int[entries.size()];
        for (int i = 0; i < out.length; i++) {
            TflmView.Entry e = entries.get(i);
            out[i] = -1;
            if (kept != null && kept[i] >= 0) {
                out[i] = kept[i];
            } else if (e.planned() && !e.variable()) {
                PlannedBuffer b = at.get(e.label());
                if (b == null) {
                    throw Require.invalid("plan", e.label(), "the model's planned tensor " + e.label()
                            + " has no buffer in space " + m.arenaSpace() + "; the plan is not one of this model");
                }
                long o = b.offset();
                if (o > Integer.MAX_VALUE || b.reserved() > Integer.MAX_VALUE - o) {
                    throw BerthException.invalid("--tflm-plan", "tensor " + e.label() + " is placed at offset " + o
                            + " (" + b.reserved() + " bytes): TFLM's offline plan holds int32 offsets; plan on a target "
                            + "whose arena format ends below 2^31 (the tflm target's does)");
                }
                out[i] = (int) o;
            }
        }
        return out;
    }

    /** The bytes of {@code input} with {@code offsets} as its offline plan. */
    public static byte[] write(Path input, TfliteModel m, int[] offsets) {
        return write(input, m, offsets, TfliteOperatorOrder.file(m));
    }

    /**
     * The bytes of {@code input} with subgraph 0's operators in {@code order} (per position, the
     * index in the file of the operator that runs there; {@link TfliteOperatorOrder}) and
     * {@code offsets} as its offline plan.
     */
    public static byte[] write(Path input, TfliteModel m, int[] offsets, int[] order) {
        String what = input.toString();
        try (FileChannel ch = FileChannel.open(input, StandardOpenOption.READ)) {
            if (ch.size() > TfliteReader.MAX_FILE) {
                throw Require.invalid(what, "too large to rewrite");
            }
            return write(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()), what, m, offsets, order);
        } catch (IOException e) {
            throw FileErrors.cannotRead(input, what, e);
        }
    }

    /**
     * The bytes of {@code original} (the file {@code m} was read from) with {@code offsets} as its
     * offline plan: one per tensor, each -1 or an offset, else {@code invalid-input} naming
     * {@code offsets} ({@code offsets[3]}).
     */
    public static byte[] write(ByteBuffer original, String what, TfliteModel m, int[] offsets) {
        return write(original, what, m, offsets, TfliteOperatorOrder.file(m));
    }

    /**
     * As {@link #write(ByteBuffer, String, TfliteModel, int[])}, with subgraph 0's {@code operators}
     * vector in {@code order} (per position, the index in the file of the operator that runs there):
     * every operator table is the input's, only the vector's order changes, and the file's own order
     * writes the bytes the other method writes. An order that is not a permutation keeping every
     * tensor's writers in order with its other readers and writers, and the kept operators in
     * order ({@link TfliteOperatorOrder}), is {@code invalid-input} naming {@code order}. TFLM takes
     * every tensor's lifetime from this order and applies each offset as given, overlapping or not
     * (an output written over an input dying there has the input's offset), so the offsets must be
     * a plan for this order.
     */
    public static byte[] write(ByteBuffer original, String what, TfliteModel m, int[] offsets, int[] order) {
        Require.nonNull(m, "m");
        Require.nonNull(offsets, "offsets");
        TfliteOperatorOrder.check(m, order);
        ByteBuffer in = original.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        TfliteVerifier v = TfliteVerifier.of(in, what);
        TfliteModel again = TfliteReader.read(in, what);
        if (again.tensorCount() != m.tensorCount() || again.subgraphs().size() != m.subgraphs().size()) {
            throw Require.invalid(what, "the file changed since it was planned");
        }
        if (offsets.length != m.tensorCount()) {
            throw Require.invalid("offsets", Integer.toString(offsets.length), offsets.length + " offsets, but " + what
                    + " has " + m.tensorCount() + " tensors; an offline plan has one per tensor");
        }
        for (int i = 0; i < offsets.length; i++) {
            if (offsets[i] < -1) {
                throw Require.invalid("offsets[" + i + "]", Integer.toString(offsets[i]), "an "
                        + "arena offset 0..2^31-1, or -1 for a tensor TFLM plans itself, got " + offsets[i]);
            }
        }
        int[] words = new int[3 + offsets.length];
        words[0] = VERSION;
        words[1] = again.subgraphs().size();
        words[2] = offsets.length;
        System.arraycopy(offsets, 0, words, 3, offsets.length);
        TfliteVerifier.Table model = v.root();
        long[] buffers = elements(v, in, v.ref(model, 4, "Model.buffers"), "Model.buffers");
        long[] metadata = elements(v, in, v.ref(model, 6, "Model.metadata"), "Model.metadata");
        Place place = Place.of(again);
        long room = Checked.add(Checked.add(in.limit(), Checked.multiply(16, buffers.length + 1L)),
                Checked.add(4L * words.length, 1024));
        if (room > TfliteReader.MAX_FILE) {
            throw Require.invalid(what, "the model with its plan and its buffers aligned could pass "
                    + "2^31-1 bytes");
        }
        FlatBufferBuilder b = new FlatBufferBuilder((int) room);
        TfliteRebuild r = new TfliteRebuild(v, in, what, b, place.bufferMap());
        List<Integer> tables = new ArrayList<>();
        for (int j = 0; j < buffers.length; j++) {
            if (j == place.reused()) {
                tables.add(planBuffer(b, words));
            } else if (place.bufferMap()[j] >= 0) {
                tables.add(r.table(buffers[j], "Buffer", "buffer " + j));
            }
        }
        if (place.reused() < 0) {
            tables.add(planBuffer(b, words));
        }
        int buffersVec = b.createVectorOfTables(tables.stream().mapToInt(Integer::intValue).toArray());
        List<Integer> entries = new ArrayList<>();
        for (int i = 0; i < metadata.length; i++) {
            if (i == place.entry()) {
                entries.add(planEntry(b, place.planBuffer()));
            } else if (!again.metadata().get(i).name().equals(TfliteModel.OFFLINE_PLAN)) {
                entries.add(r.table(metadata[i], "Metadata", "metadata entry " + i));
            }
        }
        if (place.entry() < 0) {
            entries.add(planEntry(b, place.planBuffer()));
        }
        int metadataVec = b.createVectorOfTables(entries.stream().mapToInt(Integer::intValue).toArray());
        Map<Integer, Integer> given = new HashMap<>(Map.of(4, buffersVec, 6, metadataVec));
        if (!TfliteOperatorOrder.isFile(order)) {
            given.put(2, reordered(v, in, r, b, model, order));
        }
        int root = r.table(model, "Model", given, "Model");
        b.finish(root, TfliteVerifier.IDENTIFIER);
        byte[] bytes = b.sizedByteArray();
        check(bytes, in, what, m, words, place, order);
        return bytes;
    }

    /** {@code Model.subgraphs} copied, subgraph 0's {@code operators} vector in {@code order}. */
    private static int reordered(TfliteVerifier v, ByteBuffer in, TfliteRebuild r, FlatBufferBuilder b,
                                 TfliteVerifier.Table model, int[] order) {
        long[] subgraphs = elements(v, in, v.ref(model, 2, "Model.subgraphs"), "Model.subgraphs");
        int[] tables = new int[subgraphs.length];
        for (int g = 0; g < subgraphs.length; g++) {
            String where = "subgraph " + g;
            if (g > 0) {
                tables[g] = r.table(subgraphs[g], "SubGraph", where);
                continue;
            }
            TfliteVerifier.Table sub = v.table(subgraphs[0], where);
            long[] operators = elements(v, in, v.ref(sub, 3, where + ".operators"), where + ".operators");
            int[] ops = new int[operators.length];
            for (int i = 0; i < ops.length; i++) {
                ops[i] = r.table(operators[order[i]], "Operator", where + " operator " + order[i]);
            }
            int vec = b.createVectorOfTables(ops);
            tables[0] = r.table(sub, "SubGraph", Map.of(3, vec), where);
        }
        return b.createVectorOfTables(tables);
    }

    /** A Buffer table whose data (16-aligned) is the plan's words. */
    private static int planBuffer(FlatBufferBuilder b, int[] words) {
        ByteBuffer data = b.createUnintializedVector(1, 4 * words.length, 16);
        for (int w = 0; w < words.length; w++) {
            data.putInt(4 * w, words[w]);
        }
        int vec = b.endVector();
        Buffer.startBuffer(b);
        Buffer.addData(b, vec);
        return Buffer.endBuffer(b);
    }

    private static int planEntry(FlatBufferBuilder b, int buffer) {
        int name = b.createString(TfliteModel.OFFLINE_PLAN);
        Metadata.startMetadata(b);
        Metadata.addName(b, name);
        Metadata.addBuffer(b, buffer);
        return Metadata.endMetadata(b);
    }

    /**
     * Where the plan goes in the written model.
     *
     * @param entry      the input's metadata entry that gets the new words (the last of the plan's
     *                   name), -1 when the new entry is appended
     * @param reused     the input buffer that gets the words (the entry's, when nothing else refers to
     *                   it), -1 when a buffer is appended
     * @param bufferMap  per input buffer, its index in the written model, -1 when dropped
     * @param planBuffer the index of the plan's buffer in the written model
     */
    private record Place(int entry, int reused, int[] bufferMap, int planBuffer) {
        static Place of(TfliteModel m) {
            int n = m.bufferBytes().length;
            boolean[] referenced = new boolean[n];
            if (n > 0) {
                referenced[0] = true; // the empty buffer every tensor without data points to
            }
            for (TfliteModel.Subgraph g : m.subgraphs()) {
                for (TfliteModel.Tensor t : g.tensors()) {
                    referenced[(int) t.buffer()] = true;
                }
            }
            int entry = -1;
            for (int i = 0; i < m.metadata().size(); i++) {
                TfliteModel.MetadataEntry e = m.metadata().get(i);
                if (e.name().equals(TfliteModel.OFFLINE_PLAN)) {
                    entry = i;
                } else {
                    referenced[(int) e.buffer()] = true;
                }
            }
            int reused = entry < 0 || referenced[(int) m.metadata().get(entry).buffer()] ? -1
                    : (int) m.metadata().get(entry).buffer();
            boolean[] dropped = new boolean[n];
            for (TfliteModel.MetadataEntry e : m.metadata()) {
                if (e.name().equals(TfliteModel.OFFLINE_PLAN) && e.buffer() != reused && !referenced[(int) e.buffer()]) {
                    dropped[(int) e.buffer()] = true;
                }
            }
            int[] map = new int[n];
            int next = 0;
            for (int j = 0; j < n; j++) {
                map[j] = dropped[j] ? -1 : next++;
            }
            return new Place(entry, reused, map, reused >= 0 ? map[reused] : next);
        }
    }

    /**
     * The written model reads back as the input with the plan: same tensors as TFLM sees them, the
     * words given, every buffer of the input kept with the same bytes, every buffer's data (if any)
     * 16-aligned.
     */
    private static void check(byte[] bytes, ByteBuffer in, String what, TfliteModel m, int[] words, Place place,
                              int[] order) {
        TfliteModel back = TfliteReader.read(ByteBuffer.wrap(bytes), what + " (with its offline plan)");
        boolean same = back.offlinePlan().isPresent() && Arrays.equals(back.offlinePlan().get(), words)
                && back.tensorCount() == m.tensorCount() && back.subgraphs().size() == m.subgraphs().size();
        for (int g = 0; same && g < m.subgraphs().size(); g++) {
            List<TfliteModel.Operator> was = m.subgraphs().get(g).operators();
            List<TfliteModel.Operator> now = back.subgraphs().get(g).operators();
            same = was.size() == now.size();
            for (int i = 0; same && i < now.size(); i++) {
                TfliteModel.Operator a = was.get(g == 0 ? order[i] : i);
                TfliteModel.Operator c = now.get(i);
                same = a.opcodeIndex() == c.opcodeIndex() && Arrays.equals(a.inputs(), c.inputs())
                        && Arrays.equals(a.outputs(), c.outputs()) && Arrays.equals(a.intermediates(), c.intermediates())
                        && Arrays.equals(a.calls(), c.calls());
            }
        }
        Model before = Model.getRootAsModel(in.duplicate().position(0).order(ByteOrder.LITTLE_ENDIAN));
        Model after = Model.getRootAsModel(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN));
        Buffer a = new Buffer();
        Buffer b = new Buffer();
        for (int j = 0; same && j < before.buffersLength(); j++) {
            int to = place.bufferMap()[j];
            if (to >= 0 && j != place.reused()) {
                ByteBuffer x = before.buffers(a, j).dataAsByteBuffer();
                ByteBuffer y = after.buffers(b, to).dataAsByteBuffer();
                same = x == null ? y == null : x.equals(y);
            }
        }
        for (int j = 0; same && j < after.buffersLength(); j++) {
            ByteBuffer data = after.buffers(b, j).dataAsByteBuffer();
            same = data == null || !data.hasRemaining() || data.position() % 16 == 0;
        }
        if (!same) {
            throw new IllegalStateException("the model written with its offline plan does not read back as the input "
                    + "with the plan and its operators in the order given, every buffer's data 16-aligned");
        }
    }

    private static long[] elements(TfliteVerifier v, ByteBuffer in, long vector, String where) {
        if (vector < 0) {
            return new long[0];
        }
        TfliteVerifier.Vec vec = v.vectorAt(vector, 4, where);
        long[] out = new long[(int) vec.length()];
        for (int i = 0; i < out.length; i++) {
            long p = vec.start() + 4L * i;
            out[i] = p + (in.getInt((int) p) & 0xFFFF_FFFFL);
        }
        return out;
    }
}
