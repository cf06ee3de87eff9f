package dev.berth;

import org.junit.jupiter.params.provider.Arguments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Locates the repository and its test data for the tests of every module (berth-io and
 * berth-cli reach this class through berth-core's test jar). The repository root is the first
 * directory at or above the working directory that holds {@code .ci/run}; the test data is
 * {@code <root>/testdata} (see its README). The data is part of the repository, so a missing
 * root or file fails the calling test with the path it looked for; it never skips.
 */
public final class TestData {
    private TestData() {
    }

    /** The repository root, or the calling test fails. */
    public static Path root() {
        Path start = Path.of("").toAbsolutePath();
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(".ci").resolve("run"))) {
                return p;
            }
        }
        return fail("no repository root (a directory holding .ci/run) at or above " + start
                + "; run the tests from inside the repository");
    }

    /** {@code <root>/testdata/<relative>}, which must exist, or the calling test fails. */
    public static Path require(String relative) {
        Path dir = root().resolve("testdata");
        Path p = dir.resolve(relative).normalize();
        if (!p.startsWith(dir)) {
            fail("'" + relative + "' is not a path inside " + dir);
        }
        if (!Files.exists(p)) {
            fail("test data " + p + " is missing: it is part of the repository (testdata/README.md lists what "
                    + "belongs there); restore it with git, or fix the name");
        }
        return p;
    }

    /**
     * The ONNX models of {@code testdata/models}, each with the {@code --input} values their
     * {@code expected/} shapes were taken with: arguments (file name, inputs) for
     * {@code @MethodSource("dev.berth.TestData#onnxModels")}.
     */
    public static Stream<Arguments> onnxModels() {
        return Stream.of(
                Arguments.of("ch_PP-OCRv4_det_infer.onnx", List.of("x=1x3x640x640")),
                Arguments.of("ch_ppocr_mobile_v2.0_cls_infer.onnx", List.of("x=1x3x48x192")),
                Arguments.of("silero_vad_legacy.onnx", List.of("input=1x1536", "sr=16000")),
                Arguments.of("hello_deepa.onnx", List.of()));
    }
}
