/**
 * Berth's readers and writers: the JSON formats of targets, workloads and plans, MiniMalloc's
 * CSV, ONNX models ({@code dev.berth.io.onnx}) and TFLite models with TFLM's head layout
 * ({@code dev.berth.io.tflite}).
 *
 * <p>Exported: the three packages berth-cli and berth-bench read. Not exported: the classes
 * protoc generates for the ONNX subset Berth reads ({@code dev.berth.io.onnx.proto}), which only
 * {@code dev.berth.io.onnx} uses. Exported to berth-cli alone: what berth-io's packages share
 * ({@code dev.berth.io.model}: the {@code --input} fixes and the choice of spaces of the ONNX
 * and the TFLite import, and the one wording of a file error, which berth-cli's reads and writes
 * use too). The TFLite schema classes and the FlatBuffers runtime are jars
 * without a module descriptor or an {@code Automatic-Module-Name}: their module names are the
 * ones Java derives from the jar files' names.
 */
// "module": the qualified export names a module that this build compiles after this one
@SuppressWarnings("module")
module dev.berth.io {
    requires transitive dev.berth.core;
    requires transitive com.fasterxml.jackson.databind;
    requires com.google.protobuf;
    requires tensorflow.lite.metadata;
    requires flatbuffers.java;

    exports dev.berth.io;
    exports dev.berth.io.onnx;
    exports dev.berth.io.tflite;

    exports dev.berth.io.model to dev.berth.cli;
}
