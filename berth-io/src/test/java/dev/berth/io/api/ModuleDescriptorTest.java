package dev.berth.io.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.flatbuffers.FlatBufferBuilder;
import com.google.protobuf.ByteString;
import dev.berth.io.PlanJson;
import dev.berth.plan.Planner;
import org.junit.jupiter.api.Test;
import org.tensorflow.lite.schema.Model;

import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ResolvedModule;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * berth-io's module descriptor, read from its compiled classes (the tests themselves run on the
 * class path: see the pom): the module dev.berth.io exports the packages berth-cli and
 * berth-bench use and nothing else (its shared {@code io.model} to berth-cli alone), and what it
 * requires resolves against the very jars the build uses, under the names written in
 * module-info.java.
 */
class ModuleDescriptorTest {
    /** The jar or directory a class was loaded from. */
    static Path home(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ModuleFinder modules() {
        return ModuleFinder.of(Stream.of(PlanJson.class, Planner.class, JsonNode.class, JsonGenerator.class,
                        JsonProperty.class, ByteString.class, Model.class,
                        FlatBufferBuilder.class)
                .map(ModuleDescriptorTest::home).distinct().toArray(Path[]::new));
    }

    @Test
    void ioExportsItsThreePackagesHidesTheGeneratedOnnxClassesAndSharesItsCommonPartsWithTheCliAlone() {
        ModuleDescriptor io = modules().find("dev.berth.io").orElseThrow().descriptor();
        assertThat(io.isAutomatic()).isFalse();
        assertThat(io.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source))
                .containsExactlyInAnyOrder("dev.berth.io", "dev.berth.io.onnx", "dev.berth.io.tflite");
        assertThat(io.exports().stream().filter(ModuleDescriptor.Exports::isQualified)
                .map(e -> e.source() + " to " + e.targets()))
                .as("the importers' shared parts and FileErrors, to berth-cli alone")
                .containsExactly("dev.berth.io.model to [dev.berth.cli]");
        assertThat(io.packages()).contains("dev.berth.io.onnx.proto", "dev.berth.io.model");
        assertThat(io.opens()).isEmpty();
        assertThat(io.requires().stream().filter(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                .map(ModuleDescriptor.Requires::name))
                .as("what io's API hands out: berth-core's types and Jackson's JsonNode and JsonGenerator")
                .containsExactlyInAnyOrder("dev.berth.core", "com.fasterxml.jackson.databind");
    }

    @Test
    void everyModuleIoRequiresIsFoundUnderItsName() {
        Configuration c = ModuleLayer.boot().configuration().resolve(modules(), ModuleFinder.of(), Set.of("dev.berth.io"));
        assertThat(c.modules().stream().map(ResolvedModule::name).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("dev.berth.io", "dev.berth.core", "com.fasterxml.jackson.databind",
                        "com.fasterxml.jackson.core", "com.fasterxml.jackson.annotation", "com.google.protobuf",
                        "tensorflow.lite.metadata", "flatbuffers.java");
    }
}
