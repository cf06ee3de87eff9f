package dev.berth.io.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.berth.arith.Sizes;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the number syntax of contract §2 ({@link Sizes#parse}). Any text parses to a value in
 * 0..2^63-1 or is {@code invalid-input}; a parsed value parses back to itself from its decimal,
 * hexadecimal and underscored forms. Seeds and findings: {@code SizesFuzzTestInputs/sizeText/}.
 */
class SizesFuzzTest {

    @FuzzTest(maxDuration = FuzzSettings.MAX_DURATION)
    void sizeText(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        Optional<Long> parsed = Outcomes.read(() -> Sizes.parse(text, "size"));
        parsed.ifPresent(v -> {
            assertThat(v).isNotNegative();
            assertThat(Sizes.parse(Long.toString(v), "again")).isEqualTo(v);
            assertThat(Sizes.parse("0x" + Long.toHexString(v), "again")).isEqualTo(v);
            assertThat(Sizes.parse(String.format(Locale.ROOT, "%,d", v).replace(',', '_'), "again"))
                    .isEqualTo(v);
            if (v % 1024 == 0) {
                assertThat(Sizes.parse((v / 1024) + " KiB", "again")).isEqualTo(v);
            }
        });
    }
}
