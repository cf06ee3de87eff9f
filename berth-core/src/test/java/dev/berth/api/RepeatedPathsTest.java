package dev.berth.api;

import dev.berth.SourceRules;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * berth-core writes an {@code invalid-input} message that begins with its path as
 * {@code Require.invalid(path, [value,] reason)}, which writes {@code path: } itself: no call of
 * {@code BerthException.invalid} writes the path into its message again
 * ({@link SourceRules#repeatedPaths(String)}, the rule docs/design.md counts) but the two of
 * {@code Require.invalid} itself.
 */
class RepeatedPathsTest {
    @Test
    void onlyRequireInvalidWritesThePathPrefix() {
        Path main = Path.of("src/main/java");
        assertThat(SourceRules.javaFiles(main)).as("berth-core's sources").hasSizeGreaterThan(100);
        assertThat(SourceRules.repeatedPaths(main)).hasSize(2).allMatch(l -> l.startsWith(
                main.resolve("dev/berth/failure/Require.java") + ":"));
    }
}
