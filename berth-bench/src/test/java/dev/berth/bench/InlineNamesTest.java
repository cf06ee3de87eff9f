package dev.berth.bench;

import dev.berth.SourceRules;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * berth-bench's code names types by imports, not by fully qualified names written inline
 * ({@code java.util.List}, {@code dev.berth.target.Target}): the rule docs/design.md counts
 * ({@link SourceRules#inlineNames(String)}), kept at zero for this module's main and test sources.
 */
class InlineNamesTest {
    private static final Path[] SOURCES = {Path.of("src/main/java"), Path.of("src/test/java")};

    @Test
    void berthBenchWritesNoQualifiedNameInline() {
        assertThat(SourceRules.javaFiles(SOURCES)).as("berth-bench's sources").hasSizeGreaterThan(20);
        assertThat(SourceRules.inlineNames(SOURCES)).isEmpty();
    }
}
