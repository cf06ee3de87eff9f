package dev.berth.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.plan.Planner;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import dev.berth.workload.Workload;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The plan artifact: golden file, exact round trip, strict reader. */
class PlanJsonTest {

    /** A plan built by hand with every kind of entry, so the golden file does not move with the solvers. */
    static Plan handBuilt() {
        var target = TargetJson.load("npu-ref");
        Map<String, SpaceMetrics> spaces = new LinkedHashMap<>();
        spaces.put("global", new SpaceMetrics("logical", OptionalLong.empty(), 5376, 5376, 0, 1088, 0));
        spaces.put("sram", new SpaceMetrics("local", OptionalLong.of(262144), 4096, 4096, 2, 0, 0));
        spaces.put("weights", new SpaceMetrics("external", OptionalLong.empty(), 0, 0, -1, 0, 0));
        List<PlannedBuffer> buffers = List.of(
                new PlannedBuffer("t0", "global", 1024, 4096, 4096, 64, new Lifetime(0, 2), Origin.TENSOR, Optional.empty()),
                new PlannedBuffer("abi.input", "global", 0, 1000, 1000, 1, new Lifetime(0, 5), Origin.FIXED, Optional.empty()),
                new PlannedBuffer("t0.tilebuf.0", "sram", 0, 2048, 2048, 32, new Lifetime(2, 5), Origin.TILE, Optional.of("t0")),
                new PlannedBuffer("t0.tilebuf.1", "sram", 2048, 2048, 2048, 32, new Lifetime(2, 5), Origin.TILE, Optional.of("t0")),
                new PlannedBuffer("descriptor-table", "global", 5120, 64, 64, 64, new Lifetime(0, 5), Origin.DESCRIPTOR_TABLE,
                        Optional.empty()),
                new PlannedBuffer("instructions", "global", 5184, 96, 128, 64, new Lifetime(0, 5), Origin.INSTRUCTIONS,
                        Optional.empty()));
        List<DescriptorEntry> ds = List.of(new DescriptorEntry("t0.tile.0", 0, "t0", 1024, 2048, "global", "dma32"),
                new DescriptorEntry("t0.tile.1", 1, "t0", 3072, 2048, "global", "dma32"));
        return new Plan(target, "example", "best-fit", spaces, buffers, ds);
    }

    @Test
    void theWriterMatchesTheGoldenFile() throws IOException {
        String written = PlanJson.toString(handBuilt());
        try (InputStream in = getClass().getResourceAsStream("/golden/example.plan.json")) {
            assertThat(in).as("golden file; regenerate it only on purpose").isNotNull();
            assertThat(written).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void roundTripIsExact() {
        Plan p = handBuilt();
        byte[] once = PlanJson.toBytes(p);
        Plan back = PlanJson.read(Json.MAPPER.valueToTree(parse(once)));
        assertThat(back).isEqualTo(p);
        assertThat(PlanJson.toBytes(back)).isEqualTo(once);
    }

    @Test
    void roundTripOfPlannedWorkloads() {
        Workload w = WorkloadJson.read(parse("""
                { "workload": "rt", "buffers": [
                  { "name": "a", "size": "4KiB", "space": "global", "live": [0, 2] },
                  { "name": "b", "size": 100, "space": "sram", "alignment": 3, "live": [1, 3] },
                  { "name": "c", "size": "64KiB", "space": "global", "live": [1, 2],
                    "tile": { "through": "sram", "buffers": 2 } } ],
                  "fixed": [ { "name": "f", "space": "global", "offset": 0, "size": 7, "live": [0, 3] } ] }
                """.getBytes(StandardCharsets.UTF_8)), "rt", TargetJson.load("npu-ref"));
        Plan p = Planner.plan(TargetJson.load("npu-ref"), w, Planner.Options.defaults()).plan();
        assertThat(p.descriptors()).isNotEmpty();
        byte[] once = PlanJson.toBytes(p);
        Plan back = PlanJson.read(parse(once));
        assertThat(back).isEqualTo(p);
        assertThat(PlanJson.toBytes(back)).isEqualTo(once);
    }

    private static JsonNode parse(byte[] bytes) {
        try {
            return Json.parse(new java.io.ByteArrayInputStream(bytes), "test");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void rejects(Consumer<ObjectNode> edit, String... expected) {
        ObjectNode root = (ObjectNode) parse(PlanJson.toBytes(handBuilt()));
        edit.accept(root);
        assertThatThrownBy(() -> PlanJson.read(root)).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.getMessage()).contains(expected);
        });
    }

    @Test
    void aCapacityOnALogicalSpaceIsRejected() {
        rejects(r -> ((ObjectNode) r.get("spaces").get("global")).put("capacity", 8192),
                "spaces.global.capacity", "a logical space has no compile-time capacity");
        rejects(r -> ((ObjectNode) r.get("target").get("spaces").get("global")).put("capacity", 8192),
                "target.spaces.global.capacity", "no compile-time capacity");
    }

    @ParameterizedTest
    @CsvSource({
            "'', extra, unknown key 'extra'",
            "spaces.global, budget, spaces.global.budget",
            "target, budget, target.budget",
            "target.formats.dma32, width, target.formats.dma32.width",
    })
    void unknownKeysAreRejectedWithTheirPath(String where, String key, String expected) {
        rejects(r -> {
            ObjectNode n = r;
            if (!where.isEmpty()) {
                for (String part : where.split("\\.")) {
                    n = (ObjectNode) n.get(part);
                }
            }
            n.put(key, 1);
        }, expected);
    }

    @Test
    void everyOtherRejection() {
        rejects(r -> ((ObjectNode) r.get("buffers").get(0)).put("color", "red"), "buffers[0].color");
        rejects(r -> ((ObjectNode) r.get("descriptors").get(1)).put("crc", 1), "descriptors[1].crc");
        rejects(r -> r.put("format", "tflm-plan"), "not a Berth plan");
        rejects(r -> r.put("version", 2), "version 1, not 2");
        rejects(r -> ((ObjectNode) r.get("buffers").get(0)).put("origin", "weights"), "buffers[0].origin");
        rejects(r -> ((ObjectNode) r.get("buffers").get(0)).remove("reserved"), "buffers[0].reserved");
        rejects(r -> ((ObjectNode) r.get("buffers").get(0)).put("offset", -1), "buffers[0].offset", "negative");
        rejects(r -> ((ObjectNode) r.get("buffers").get(0)).put("offset", 1.5), "buffers[0].offset");
        rejects(r -> ((ObjectNode) r.get("spaces").get("sram")).put("kind", "logical"), "spaces.sram.kind");
        rejects(r -> ((ObjectNode) r.get("spaces")).remove("weights"), "spaces.weights");
        rejects(r -> ((ObjectNode) r.get("spaces")).putObject("dram").put("kind", "local"), "spaces.dram");
        rejects(r -> r.putArray("buffers").addObject().put("name", "x"), "buffers[0]");
        rejects(r -> ((ObjectNode) r.get("buffers").get(0)).putArray("live").add(3).add(1), "buffers[0].live",
                "reversed");
    }

    private static JsonNode parse(String s) {
        return parse(s.getBytes(StandardCharsets.UTF_8));
    }
}
