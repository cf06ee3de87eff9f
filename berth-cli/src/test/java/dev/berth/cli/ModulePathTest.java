package dev.berth.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.flatbuffers.FlatBufferBuilder;
import com.google.protobuf.ByteString;
import dev.berth.TestData;
import dev.berth.io.PlanJson;
import dev.berth.plan.Planner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.lite.schema.Model;
import picocli.CommandLine;

import java.io.File;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command runs from the modules themselves, not only from the class path the other tests
 * use (see the pom): {@code java -p ... -m dev.berth.cli/dev.berth.cli.Main} prints the same
 * bytes and writes the same files as the command on the class path, which needs each
 * {@code requires} to name its module, picocli's reflection to be opened to it and berth-io's
 * resources and ONNX reader to work inside its module. And berth-cli's descriptor says no more
 * than that: it exports nothing.
 */
class ModulePathTest {
    @TempDir
    Path dir;

    private static Path home(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** berth-cli's classes, the modules it needs and nothing else (not the tests, not berth-core's test jar). */
    private static List<Path> modulePath() {
        return Stream.of(Main.class, PlanJson.class, Planner.class, CommandLine.class, JsonNode.class, JsonGenerator.class,
                JsonProperty.class, ByteString.class, Model.class, FlatBufferBuilder.class)
                .map(ModulePathTest::home).distinct().toList();
    }

    @Test
    void theCommandLineExportsNothingAndOpensItsCommandsToPicocliAlone() {
        ModuleDescriptor cli = ModuleFinder.of(modulePath().toArray(Path[]::new)).find("dev.berth.cli").orElseThrow()
                .descriptor();
        assertThat(cli.isAutomatic()).isFalse();
        assertThat(cli.exports()).isEmpty();
        assertThat(cli.opens()).hasSize(1);
        ModuleDescriptor.Opens opens = cli.opens().iterator().next();
        assertThat(opens.source()).isEqualTo("dev.berth.cli");
        assertThat(opens.targets()).containsExactly("info.picocli");
        assertThat(cli.requires().stream().map(ModuleDescriptor.Requires::name).collect(Collectors.toSet()))
                .isEqualTo(Set.of("java.base", "dev.berth.core", "dev.berth.io", "com.fasterxml.jackson.core",
                        "info.picocli", "jdk.unsupported"));
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theDemoFromTheModulesIsTheDemoFromTheClassPath() throws Exception {
        Path out = dir.resolve("demo");
        Run onClassPath = Run.of("demo", "--dir", out.toString());
        assertThat(onClassPath.exit()).as(onClassPath.err()).isZero();
        byte[] plan = Files.readAllBytes(out.resolve("plan.json"));
        byte[] report = Files.readAllBytes(out.resolve("plan.html"));
        Files.delete(out.resolve("plan.json"));
        Files.delete(out.resolve("plan.html"));

        assertThat(fromModules("demo", "--dir", out.toString())).isEqualTo(onClassPath.out());
        assertThat(Files.readAllBytes(out.resolve("plan.json"))).isEqualTo(plan);
        assertThat(Files.readAllBytes(out.resolve("plan.html"))).isEqualTo(report);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aWorkloadFilePlansTheSameFromTheModules() throws Exception {
        String workload = TestData.root().resolve("examples/convnet.json").toString();
        Run onClassPath = Run.of("plan", workload, "--json");
        assertThat(onClassPath.exit()).as(onClassPath.err()).isZero();
        assertThat(fromModules("plan", workload, "--json")).isEqualTo(onClassPath.out());
    }

    /** The standard output of {@code berth ARGS} run as {@code java -p MODULES -m dev.berth.cli/...}, which must exit 0. */
    private String fromModules(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-p", modulePath().stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)),
                "-m", "dev.berth.cli/" + Main.class.getName()));
        cmd.addAll(List.of(args));
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        assertThat(p.waitFor()).as(Files.readString(stderr, StandardCharsets.UTF_8)).isZero();
        assertThat(Files.readString(stderr, StandardCharsets.UTF_8)).isEmpty();
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }
}
