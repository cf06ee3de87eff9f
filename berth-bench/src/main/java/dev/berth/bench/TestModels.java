package dev.berth.bench;

import java.util.List;

/**
 * The repository's test models (under {@code testdata/models}) with the {@code --input} texts
 * each is planned with: the ONNX models at their README's shapes, then the TFLite models.
 */
final class TestModels {
    private TestModels() {
    }

    /** A model file relative to {@code testdata/models}, and its {@code --input} texts. */
    record Model(String file, List<String> inputs) {
        boolean tflite() {
            return file.endsWith(".tflite");
        }
    }

    static final List<Model> ALL = List.of(
            new Model("ch_PP-OCRv4_det_infer.onnx", List.of("x=1x3x640x640")),
            new Model("ch_ppocr_mobile_v2.0_cls_infer.onnx", List.of("x=1x3x48x192")),
            new Model("silero_vad_legacy.onnx", List.of("input=1x1536", "sr=16000")),
            new Model("hello_deepa.onnx", List.of()),
            new Model("tflite/face_detection_short_range.tflite", List.of()),
            new Model("tflite/hello_world_int8.tflite", List.of("serving_default_dense_input:0=1x1")),
            new Model("tflite/keyword_scrambled_8bit.tflite", List.of()),
            new Model("tflite/micro_speech_quantized.tflite", List.of()),
            new Model("tflite/person_detect.tflite", List.of()),
            new Model("tflite/person_detect_vela.tflite", List.of()),
            new Model("tflite/selfie_segmentation.tflite", List.of()),
            new Model("tflite/trained_lstm_int8.tflite", List.of()));
}
