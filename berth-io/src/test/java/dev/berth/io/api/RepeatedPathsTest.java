package dev.berth.io.api;

import dev.berth.SourceRules;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * berth-io writes an {@code invalid-input} message that begins with its path (a field of a file,
 * the file itself, an option) as {@code Require.invalid(path, [value,] reason)}, which writes
 * {@code path: } itself: no call of {@code BerthException.invalid} writes it again
 * ({@link SourceRules#repeatedPaths(String)}, the rule docs/design.md counts).
 */
class RepeatedPathsTest {
    @Test
    void noCallWritesThePathPrefixByHand() {
        Path main = Path.of("src/main/java");
        assertThat(SourceRules.javaFiles(main)).as("berth-io's sources").hasSizeGreaterThan(50);
        assertThat(SourceRules.repeatedPaths(main)).isEmpty();
    }
}
