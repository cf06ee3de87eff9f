package dev.berth.cli;

import dev.berth.SourceRules;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * berth-cli's code names types by imports, not by fully qualified names written inline
 * ({@code java.util.List}, {@code dev.berth.io.PlanJson}): the rule docs/design.md counts
 * ({@link SourceRules#inlineNames(String)}), kept at zero for this module's main and test sources.
 */
class InlineNamesTest {
    private static final Path[] SOURCES = {Path.of("src/main/java"), Path.of("src/test/java")};

    @Test
    void berthCliWritesNoQualifiedNameInline() {
        assertThat(SourceRules.javaFiles(SOURCES)).as("berth-cli's sources").hasSizeGreaterThan(30);
        assertThat(SourceRules.inlineNames(SOURCES)).isEmpty();
    }
}
