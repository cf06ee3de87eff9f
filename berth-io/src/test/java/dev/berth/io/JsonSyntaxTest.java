package dev.berth.io;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bytes Jackson refuses with something other than its own exceptions (found by fuzzing, see
 * docs/reliability.md) are {@code invalid-input} like any bad JSON.
 */
class JsonSyntaxTest {
    @TempDir
    Path dir;

    private static void invalid(byte[] bytes, String fragment) {
        assertThatThrownBy(() -> Json.parse(new ByteArrayInputStream(bytes), "f.json"))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    org.assertj.core.api.Assertions.assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    org.assertj.core.api.Assertions.assertThat(e.getMessage()).contains("f.json", fragment);
                });
    }

    @Test
    void aNumberWithAnExponentTooLongForBigDecimal() {
        invalid("{ \"a\": 8E444444444444444444444444444 }".getBytes(StandardCharsets.UTF_8), "number");
        invalid("[777777E7777777777777777]".getBytes(StandardCharsets.UTF_8), "number");
    }

    @Test
    void textAfterTheTopLevelValueIsSaidInWordsNotInJacksonsClassNames() {
        invalid("{\"buffers\": []}\n {}".getBytes(StandardCharsets.UTF_8),
                "not valid JSON: more text after the top-level value at line 2, column 2 (a file holds one JSON object)");
        assertThatThrownBy(() -> Json.parse(new ByteArrayInputStream("{} []".getBytes(StandardCharsets.UTF_8)), "f.json"))
                .hasMessageNotContaining("jackson").hasMessageNotContaining("DeserializationFeature");
    }

    @Test
    void nulBytesThatMakeJacksonReadUtf32() throws Exception {
        byte[] text = "{\"formats\":{}}".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[96 + text.length];
        System.arraycopy(text, 0, bytes, 96, text.length);
        invalid(bytes, "not JSON text");
        Path f = Files.write(dir.resolve("t.json"), bytes);
        assertThatThrownBy(() -> TargetJson.load(f.toString())).isInstanceOfSatisfying(BerthException.class,
                e -> org.assertj.core.api.Assertions.assertThat(e.category()).isEqualTo(Category.INVALID_INPUT));
    }
}
