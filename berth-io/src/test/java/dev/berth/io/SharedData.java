package dev.berth.io;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.provider.Arguments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Locates the team's shared data ({@code <repo root>/../shared}): the repository root is the
 * first directory at or above the working directory that holds {@code .ci/run}. Tests that
 * need it are skipped, with a message saying why, when it is not there.
 */
public final class SharedData {
    private SharedData() {
    }

    /** {@code <root>/../shared/<relative>}, or the calling test is skipped. */
    public static Path require(String relative) {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.isRegularFile(root.resolve(".ci/run"))) {
            root = root.getParent();
        }
        Assumptions.assumeTrue(root != null, "skipped: no repository root (a directory with .ci/run) above "
                + Path.of("").toAbsolutePath());
        Path p = root.resolve("../shared").resolve(relative).normalize();
        Assumptions.assumeTrue(Files.exists(p), "skipped: shared data " + p + " is not present (it lives beside the "
                + "repository as ../shared)");
        return p;
    }

    /**
     * The shared ONNX models, each with the {@code --input} values their {@code expected/}
     * shapes were taken with: arguments (file name, inputs) for {@code @MethodSource}.
     */
    public static Stream<Arguments> models() {
        return Stream.of(
                Arguments.of("ch_PP-OCRv4_det_infer.onnx", List.of("x=1x3x640x640")),
                Arguments.of("ch_ppocr_mobile_v2.0_cls_infer.onnx", List.of("x=1x3x48x192")),
                Arguments.of("silero_vad_legacy.onnx", List.of("input=1x1536", "sr=16000")),
                Arguments.of("hello_deepa.onnx", List.of()));
    }
}
