package dev.berth.io.tflite;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which bytes of a {@code .tflite} file the model reaches: the header, and from the root every
 * table (its vtable and inline bytes), string, vector and vector element the schema's fields
 * point to. A file with nothing unreferenced has, outside those, only the zero padding the
 * builder puts before an aligned object (fewer than 16 bytes at a time).
 */
final class FlatBufferCoverage {
    private final ByteBuffer bb;
    private final BitSet covered = new BitSet();
    private final Set<Long> seen = new HashSet<>();

    private FlatBufferCoverage(byte[] file) {
        this.bb = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    }

    static void assertEveryByteCovered(byte[] file, String what) {
        FlatBufferCoverage c = new FlatBufferCoverage(file);
        c.mark(0, 8);
        c.table(c.u32(0), "Model");
        int run = 0;
        for (int i = 0; i <= file.length; i++) {
            if (i < file.length && !c.covered.get(i)) {
                assertThat(file[i]).as(what + ": byte " + i + ", which no object of the model covers, is padding").isZero();
                run++;
            } else {
                assertThat(run).as(what + ": " + run + " bytes before byte " + i + " that no object of the model covers")
                        .isLessThan(16);
                run = 0;
            }
        }
    }

    private long u32(long pos) {
        return bb.getInt((int) pos) & 0xFFFF_FFFFL;
    }

    private void mark(long from, long bytes) {
        covered.set((int) from, (int) (from + bytes));
    }

    private long target(long slot) {
        return slot + u32(slot);
    }

    private void table(long pos, String type) {
        if (!seen.add(pos)) {
            return;
        }
        long vt = pos - bb.getInt((int) pos);
        int vsize = bb.getShort((int) vt) & 0xFFFF;
        int tsize = bb.getShort((int) vt + 2) & 0xFFFF;
        mark(vt, vsize);
        mark(pos, tsize);
        for (TfliteSchema.Field f : TfliteSchema.table(type).fields()) {
            int slot = 4 + 2 * f.id();
            int fo = slot < vsize ? bb.getShort((int) (vt + slot)) & 0xFFFF : 0;
            if (fo == 0) {
                continue;
            }
            long at = pos + fo;
            switch (f.kind()) {
                case STRING -> mark(target(at), 4 + u32(target(at)) + 1);
                case SCALARS -> mark(target(at), 4 + u32(target(at)) * f.size());
                case BUFFER_INDICES -> mark(target(at), 4 + 4 * u32(target(at)));
                case TABLE -> table(target(at), f.ref());
                case TABLES -> {
                    long v = target(at);
                    long n = u32(v);
                    mark(v, 4 + 4 * n);
                    for (long i = 0; i < n; i++) {
                        table(target(v + 4 + 4 * i), f.ref());
                    }
                }
                case UNION -> {
                    int typeAt = bb.getShort((int) (vt + slot - 2)) & 0xFFFF;
                    int code = bb.get((int) (pos + typeAt)) & 0xFF;
                    table(target(at), TfliteSchema.member(f.ref(), code).orElseThrow());
                }
                default -> {
                }
            }
        }
    }
}
