package dev.berth.io.api;

import dev.berth.SourceRules;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No import circle between berth-io's packages ({@link SourceRules#circleUses}): a circle is
 * reported with the uses that close it, file by file.
 */
class PackageCyclesTest {
    private static final Path SOURCES = Path.of("src/main/java");

    @Test
    void noPackageOfBerthIoUsesOneThatUsesItBack() {
        Map<String, Map<String, Set<String>>> uses = SourceRules.packageUses(SOURCES);
        assertThat(uses).as("berth-io's packages, read from %s", SOURCES.toAbsolutePath())
                .containsKeys("dev.berth.io", "dev.berth.io.model", "dev.berth.io.onnx", "dev.berth.io.tflite");
        assertThat(SourceRules.circleUses(uses)).as("uses inside import circles").isEmpty();
    }
}
