package dev.berth.cli;

import dev.berth.SourceRules;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No import circle between berth-cli's packages ({@link SourceRules#circleUses}): a circle is
 * reported with the uses that close it, file by file.
 */
class PackageCyclesTest {
    private static final Path SOURCES = Path.of("src/main/java");

    @Test
    void noPackageOfBerthCliUsesOneThatUsesItBack() {
        Map<String, Map<String, Set<String>>> uses = SourceRules.packageUses(SOURCES);
        assertThat(uses).as("berth-cli's packages, read from %s", SOURCES.toAbsolutePath())
                .containsKeys("dev.berth.cli", "dev.berth.cli.report");
        assertThat(SourceRules.circleUses(uses)).as("uses inside import circles").isEmpty();
    }
}
