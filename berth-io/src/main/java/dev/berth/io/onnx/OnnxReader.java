package dev.berth.io.onnx;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import dev.berth.failure.Require;
import dev.berth.io.model.FileErrors;
import dev.berth.io.onnx.proto.Onnx.ModelProto;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads an ONNX model file into its protobuf form. The file is memory-mapped and decoded with
 * aliasing, so every {@code raw_data} field stays a view of the mapped file: the weights are
 * never copied onto the heap. Anything that is not a well-formed ONNX model (empty, truncated,
 * not protobuf, no graph) is {@code invalid-input} saying what broke and where, never a
 * protobuf stack trace.
 */
final class OnnxReader {
    /** protobuf messages are limited to 2 GiB; larger ONNX models keep their weights outside. */
    static final long MAX_FILE = Integer.MAX_VALUE;

    private OnnxReader() {
    }

    /** Reads and checks a model file. */
    public static ModelProto read(Path file) {
        String what = file.toString();
        MappedByteBuffer map;
        long size;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            size = ch.size();
            if (size > MAX_FILE) {
                throw Require.invalid(what, "the file has " + size + " bytes, more than the 2 GiB a "
                        + "protobuf message can hold; ONNX models this large keep their weights in external data files, "
                        + "which Berth does not read");
            }
            map = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
        } catch (IOException e) {
            throw FileErrors.cannotRead(file, what, e);
        }
        return decode(map, size, what);
    }

    /** Reads a model held in memory (a model bundled in the jar); {@code what} names it in messages. */
    public static ModelProto read(byte[] bytes, String what) {
        return decode(ByteBuffer.wrap(bytes), bytes.length, what);
    }

    private static ModelProto decode(ByteBuffer buf, long size, String what) {
        if (size == 0) {
            throw Require.invalid(what, "the file is empty, expected an ONNX model");
        }
        // wrapped as an immutable ByteString, so that aliasing applies: bytes fields become slices
        // of the buffer instead of copies
        CodedInputStream in = UnsafeByteOperations.unsafeWrap(buf).newCodedInput();
        in.enableAliasing(true);
        ModelProto model;
        try {
            model = ModelProto.parseFrom(in);
            in.checkLastTagWas(0);
        } catch (InvalidProtocolBufferException e) {
            throw Require.invalid(what, "not a valid ONNX model: " + describe(e, in.getTotalBytesRead(), size));
        } catch (IOException | RuntimeException e) {
            // protobuf signals some malformed input with unchecked exceptions
            throw Require.invalid(what, "not a valid ONNX model: the protobuf data is malformed near byte "
                    + in.getTotalBytesRead() + " of " + size + " (" + e.getClass().getSimpleName() + ")");
        }
        check(model, what);
        return model;
    }

    private static String describe(InvalidProtocolBufferException e, int at, long size) {
        String m = String.valueOf(e.getMessage());
        String where = " (near byte " + at + " of " + size + ")";
        if (m.contains("ended unexpectedly") || m.contains("truncated")) {
            return "the data ends in the middle of a field" + where + ": the file is truncated, or a length field is corrupt";
        }
        if (m.contains("invalid tag") || m.contains("invalid wire type") || m.contains("end-group tag")) {
            return "the bytes are not protobuf data" + where + ": this is not an ONNX file, or it is corrupt";
        }
        if (m.contains("malformed varint")) {
            return "a malformed number (varint)" + where + ": the file is corrupt";
        }
        if (m.contains("negative size")) {
            return "a negative length field" + where + ": the file is corrupt";
        }
        if (m.contains("too many levels of nesting")) {
            return "graphs are nested too deeply (more than 100 levels)" + where;
        }
        return "protobuf decoding failed" + where + ": " + m;
    }

    /** The structural minimum of a model: an IR version, a graph, an opset for the default domain. */
    private static void check(ModelProto model, String what) {
        if (!model.hasGraph()) {
            throw Require.invalid(what, "not an ONNX model: it decodes as protobuf but has no graph "
                    + "(ModelProto field 7)" + (model.hasIrVersion() ? "" : " and no ir_version (field 1)"));
        }
        if (!model.hasIrVersion() || model.getIrVersion() < 1) {
            throw Require.invalid(what, "not an ONNX model: ir_version (ModelProto field 1) is missing "
                    + "or not positive");
        }
    }
}
