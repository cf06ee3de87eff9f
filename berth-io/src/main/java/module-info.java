/**
 * Berth's readers and writers: the JSON formats of targets, workloads and plans, MiniMalloc's
 * CSV, ONNX models ({@code dev.berth.io.onnx}) and TFLite models with TFLM's head layout
 * ({@code dev.berth.io.tflite}).
 *
 * <p>Exported: the three packages berth-cli and berth-bench read. Not exported: the classes
 * protoc generates for the ONNX subset Berth reads ({@code dev.berth.io.onnx.proto}), which only
 * {@code dev.berth.io.onnx} uses, and what the ONNX and the TFLite import share
 * ({@code dev.berth.io.model}: the {@code --input} fixes and the choice of spaces). The TFLite schema classes and the FlatBuffers runtime are jars
 * without a module descriptor or an {@code Automatic-Module-Name}: their module names are the
 * ones Java derives from the jar files' names.
 */
module dev.berth.io {
    requires transitive dev.berth.core;
    requires transitive com.fasterxml.jackson.databind;
    requires com.google.protobuf;
    requires tensorflow.lite.metadata;
    requires flatbuffers.java;

    exports dev.berth.io;
    exports dev.berth.io.onnx;
    exports dev.berth.io.tflite;
}
