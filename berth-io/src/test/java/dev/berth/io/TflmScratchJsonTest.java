package dev.berth.io;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import dev.berth.io.tflite.TflmScratch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Contract §5.1: the {@code --tflm-scratch} file, read strictly; every bad entry is invalid-input naming it. */
class TflmScratchJsonTest {
    static List<TflmScratch> parse(String json) {
        try {
            return TflmScratchJson.read(Json.parse(new ByteArrayInputStream(json.replace('\'', '"')
                    .getBytes(StandardCharsets.UTF_8)), "s.json"), "s.json");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void entriesReadInOrderWithSizesAsEverywhereElse() {
        assertThat(parse("{'scratch': [{'size': 256, 'first': 2, 'last': 2}, {'size': '1KiB', 'first': 0, 'last': 7},"
                + " {'size': 0, 'first': 3, 'last': 3}]}"))
                .containsExactly(new TflmScratch(256, 2, 2), new TflmScratch(1024, 0, 7), new TflmScratch(0, 3, 3));
        assertThat(parse("{'scratch': []}")).isEmpty();
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("{'scratch': [{'size': -1, 'first': 2, 'last': 2}]}", "scratch[0].size", "negative"),
                Arguments.of("{'scratch': [{'size': 16, 'first': 2, 'last': 2}, {'size': 16, 'first': 3, 'last': 2}]}",
                        "scratch[1].last", "before its first step 3"),
                Arguments.of("{'scratch': [{'size': 16, 'first': -1, 'last': 2}]}", "scratch[0].first", "outside 0.."),
                Arguments.of("{'scratch': [{'size': 16, 'first': 1, 'last': 2, 'offset': 0}]}", "scratch[0].offset",
                        "unknown key"),
                Arguments.of("{'scratch': [{'size': 16, 'first': 1}]}", "scratch[0].last", "missing"),
                Arguments.of("{'scratch': [{'size': 2.5, 'first': 1, 'last': 1}]}", "scratch[0].size", "whole number"),
                Arguments.of("{'scratch': [{'size': 16, 'first': '1', 'last': 1}]}", "scratch[0].first", "whole number"),
                Arguments.of("{'scratch': [{'size': 2147483648, 'first': 1, 'last': 1}]}", "scratch[0].size",
                        "TFLM's planner"),
                Arguments.of("{'scratch': [16]}", "scratch[0]", "expected a JSON object"),
                Arguments.of("{'scratch': {}}", "scratch", "expected a JSON array"),
                Arguments.of("{'buffers': []}", "buffers", "unknown key"),
                Arguments.of("{}", "scratch", "missing"),
                Arguments.of("[]", "s.json", "expected a JSON object"),
                Arguments.of("{'scratch': [], 'scratch': []}", "s.json", "Duplicate"));
    }

    @ParameterizedTest
    @MethodSource("invalid")
    void badEntriesAreInvalidInputNamingThem(String json, String path, String says) {
        BerthException e = catchThrowableOfType(BerthException.class, () -> parse(json));
        assertThat(e).as("must be rejected: %s", json).isNotNull();
        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        assertThat(((Failure.InvalidInput) e.failure()).path()).isEqualTo(Optional.of(path));
        assertThat(e.getMessage()).contains(says);
    }

    @Test
    void aMissingFileIsInvalidInput() {
        BerthException e = catchThrowableOfType(BerthException.class,
                () -> TflmScratchJson.read(Path.of("no/such/scratch.json")));
        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        assertThat(e.getMessage()).contains("no such file");
    }

    @Test
    void theJavaApiRefusesWhatTheFileReaderRefuses() {
        for (Runnable bad : List.<Runnable>of(() -> new TflmScratch(-1, 0, 0), () -> new TflmScratch(1L << 31, 0, 0),
                () -> new TflmScratch(16, -1, 0), () -> new TflmScratch(16, 3, 2))) {
            BerthException e = catchThrowableOfType(BerthException.class, bad::run);
            assertThat(e).isNotNull();
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        }
    }
}
