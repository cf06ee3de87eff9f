package dev.berth.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** Tiling and generation through the command line. */
class TilingCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    /** A 40-bit space whose descriptors only have 32 bits. */
    private Path wideTarget() throws IOException {
        return file("wide.json", """
                { "target": "wide",
                  "formats": { "addr40": { "maxAddress": "0xFF_FFFF_FFFF" }, "dma32": { "maxAddress": "0xFFFF_FFFF" } },
                  "spaces": { "global": { "kind": "logical", "format": "addr40", "alignment": 64 },
                              "sram": { "kind": "local", "format": "dma32", "alignment": 32, "capacity": "256KiB" } },
                  "generation": { "descriptor": { "space": "global", "bytes": 32, "alignment": 32, "addressFormat": "dma32" } } }
                """);
    }

    @Test
    void lateTilesPastA32BitDescriptorExit3NamingTileAndDescriptor() throws IOException {
        String tiled = """
                { "buffers": [ { "name": "t", "size": "4MiB", "space": "global", "live": [0, 3] %s } ],
                  "fixed": [ { "name": "earlier", "space": "global", "offset": 0, "size": "0xFFF0_0000", "live": [0, 3] } ] }
                """;
        Path w = file("t.json", tiled.formatted(", \"tile\": { \"through\": \"sram\", \"buffers\": 2 }"));
        Run r = Run.of("plan", w.toString(), "--target", wideTarget().toString(), "--json");
        assertThat(r.exit()).as(r.out()).isEqualTo(3);
        JsonNode e = JSON.readTree(r.out()).get("error");
        assertThat(e.get("category").asText()).isEqualTo("address-not-encodable");
        assertThat(e.get("buffer").asText()).startsWith("descriptor t.tile.").contains("of t");
        assertThat(e.get("limit").asLong()).isEqualTo(0xFFFF_FFFFL);
        assertThat(e.get("limitSource").asText()).contains("dma32");
        Path untiled = file("u.json", tiled.formatted(""));
        Run ok = Run.of("plan", untiled.toString(), "--target", wideTarget().toString());
        assertThat(ok.exit()).as(ok.err()).isZero();
    }

    @Test
    void checkDeployRechecksDescriptorsAtTheLoadersBase() throws IOException {
        Path w = file("low.json", """
                { "buffers": [ { "name": "t", "size": "4MiB", "space": "global", "live": [0, 3],
                                 "tile": { "through": "sram", "buffers": 2 } } ] }
                """);
        Path plan = dir.resolve("low.plan.json");
        Run r = Run.of("plan", w.toString(), "--target", wideTarget().toString(), "-o", plan.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        // the buffers fit a 40-bit space at this base; the 32-bit descriptors do not
        Run high = Run.of("check-deploy", plan.toString(), "--provide", "global=8MiB", "--base", "global=0xFFFF_0000",
                "--json");
        assertThat(high.exit()).as(high.out()).isEqualTo(3);
        JsonNode e = JSON.readTree(high.out()).get("error");
        assertThat(e.get("buffer").asText()).startsWith("descriptor t.tile.");
        assertThat(e.get("limitSource").asText()).contains("dma32");
        assertThat(Run.of("check-deploy", plan.toString(), "--provide", "global=8MiB", "--base", "global=0x1000")
                .exit()).isZero();
    }

    @Test
    void aDescriptorTablePastTheFormatExits3AtGeneration() throws IOException {
        Path target = file("g20.json", """
                { "formats": { "g20": { "maxAddress": "0xF_FFFF" } },
                  "spaces": { "global": { "kind": "logical", "format": "g20", "alignment": 64 },
                              "sram": { "kind": "local", "format": "g20", "alignment": 32, "capacity": 4096 } },
                  "generation": { "descriptor": { "space": "global", "bytes": 32, "alignment": 32 } } }
                """);
        Path w = file("w.json", """
                { "buffers": [
                  { "name": "filler", "size": 1040320, "space": "global", "live": [0, 1] },
                  { "name": "t", "size": 8192, "space": "global", "live": [0, 1],
                    "tile": { "through": "sram", "buffers": 2 } } ] }
                """);
        Run r = Run.of("plan", w.toString(), "--target", target.toString(), "--json");
        assertThat(r.exit()).as(r.out()).isEqualTo(3);
        JsonNode e = JSON.readTree(r.out()).get("error");
        assertThat(e.get("buffer").asText()).isEqualTo("descriptor-table");
        assertThat(e.get("message").asText()).contains("descriptor-table").contains("g20");
    }

    @Test
    void theBundledTiledExamplePrintsTilesDescriptorsAndOverhead() throws IOException {
        Path example = Path.of("../examples/tiled.json");
        assertThat(example).exists();
        Path out = dir.resolve("plan.json");
        Run r = Run.of("plan", example.toString(), "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("tiles: embedding in").contains("one descriptor each")
                .contains("generation: descriptor-table in global").contains("overhead");
        JsonNode plan = JSON.readTree(out.toFile());
        int descriptors = plan.get("descriptors").size();
        assertThat(descriptors).isGreaterThan(1);
        long tiles = 0;
        for (JsonNode b : plan.get("buffers")) {
            if (b.get("origin").asText().equals("tile")) {
                tiles++;
                assertThat(b.get("of").asText()).isEqualTo("embedding");
            }
        }
        assertThat(tiles).isEqualTo(2);
        // at deployment every descriptor is re-checked at the loader's base
        Run fine = Run.of("check-deploy", out.toString(), "--provide", "global=4MiB", "--base", "global=0x1000_0000");
        assertThat(fine.exit()).as(fine.err()).isZero();
        Run high = Run.of("check-deploy", out.toString(), "--provide", "global=4MiB", "--base", "global=0xFFF0_0000");
        assertThat(high.exit()).isEqualTo(3);
        assertThat(high.err()).contains("dma32");
    }

    /**
     * The bundled tiled plan, edited: check-deploy and report re-validate it and refuse it as
     * invalid-input (exit 2) naming the broken rule; report writes nothing.
     */
    @Test
    void anEditedTilePlanIsRefusedByCheckDeployAndReport() throws IOException {
        Path out = dir.resolve("plan.json");
        Run r = Run.of("plan", "../examples/tiled.json", "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Map<String, Consumer<ObjectNode>> edits = new LinkedHashMap<>();
        edits.put("two descriptors are named embedding.tile.5", p -> ((ArrayNode) p.get("descriptors"))
                .add(p.get("descriptors").get(5).deepCopy()));
        edits.put("13 tiles, one descriptor each (tiles 0..12), but the plan has 12", p -> ((ArrayNode) p.get(
                "descriptors")).remove(12));
        edits.put("descriptors: required key 'descriptors' is missing", p -> p.remove("descriptors"));
        edits.put("tile buffer embedding.tilebuf.0 is of nope, which is no reservation of the plan", p -> tileBuffer(p)
                .put("of", "nope"));
        edits.put("act0 is a tensor reservation, yet it is of embedding", p -> ((ObjectNode) p.get("buffers").get(0))
                .put("of", "embedding"));
        edits.put("space sram: capacity 10 in the plan, 262144 in the target", p -> ((ObjectNode) p.get("spaces")
                .get("sram")).put("capacity", 10));
        for (Map.Entry<String, Consumer<ObjectNode>> e : edits.entrySet()) {
            ObjectNode p = (ObjectNode) JSON.readTree(out.toFile());
            e.getValue().accept(p);
            Path edited = dir.resolve("edited.json");
            Files.writeString(edited, JSON.writeValueAsString(p));
            Run deploy = Run.of("check-deploy", edited.toString(), "--provide", "global=1GiB", "--json");
            assertThat(deploy.exit()).as(e.getKey() + ": " + deploy.out()).isEqualTo(2);
            JsonNode error = JSON.readTree(deploy.out()).get("error");
            assertThat(error.get("category").asText()).isEqualTo("invalid-input");
            assertThat(error.get("message").asText()).contains(e.getKey());
            Path html = dir.resolve("edited.html");
            Run report = Run.of("report", edited.toString(), "-o", html.toString());
            assertThat(report.exit()).as(e.getKey() + ": " + report.err()).isEqualTo(2);
            assertThat(report.err()).contains(e.getKey());
            assertThat(html).doesNotExist();
        }
    }

    private static ObjectNode tileBuffer(ObjectNode plan) {
        for (JsonNode b : plan.get("buffers")) {
            if (b.get("origin").asText().equals("tile")) {
                return (ObjectNode) b;
            }
        }
        throw new AssertionError("no tile buffer");
    }
}
