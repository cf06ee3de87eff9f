package dev.berth.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The seed's regression matrix, through the command line. */
class SeedRegressionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private static JsonNode error(Run r) throws IOException {
        JsonNode root = JSON.readTree(r.out());
        assertThat(root.has("error")).as(r.out()).isTrue();
        return root.get("error");
    }

    private Path elevenKiB() throws IOException {
        return file("eleven.json", """
                { "workload": "eleven", "buffers": [
                  { "name": "a", "size": "4KiB", "space": "global", "live": [0, 1] },
                  { "name": "b", "size": "4KiB", "space": "global", "live": [0, 1] },
                  { "name": "c", "size": "3KiB", "space": "global", "live": [1, 1] } ] }
                """);
    }

    @Test
    void anElevenKiBLogicalPlanNeedsNoBudgetAndIsCheckedAtDeployment() throws IOException {
        Path plan = dir.resolve("plan.json");
        // npu-ref's spaces without its generation block, so that nothing is generated above the buffers
        Path target = file("plain.json", """
                { "target": "plain",
                  "formats": { "dma32": { "maxAddress": "0xFFFF_FFFF" }, "sram20": { "maxAddress": "0xF_FFFF", "end": "last-byte" } },
                  "spaces": { "global": { "kind": "logical", "format": "dma32", "alignment": 64 },
                              "sram": { "kind": "local", "format": "sram20", "alignment": 32, "capacity": "256KiB" } } }
                """);
        Run r = Run.of("plan", elevenKiB().toString(), "--target", target.toString(), "-o", plan.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode global = JSON.readTree(plan.toFile()).get("spaces").get("global");
        assertThat(global.get("kind").asText()).isEqualTo("logical");
        assertThat(global.has("capacity")).isFalse();
        assertThat(global.get("highWater").asLong()).isEqualTo(11 * 1024);
        Run ok = Run.of("check-deploy", plan.toString(), "--provide", "global=20KiB");
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("deployable");
        Run low = Run.of("check-deploy", plan.toString(), "--provide", "global=8KiB", "--json");
        assertThat(low.exit()).isEqualTo(6);
        JsonNode e = error(low);
        assertThat(e.get("category").asText()).isEqualTo("insufficient-deployment-capacity");
        assertThat(e.get("needed").asLong()).isEqualTo(11 * 1024);
        assertThat(e.get("provided").asLong()).isEqualTo(8 * 1024);
        assertThat(e.get("short").asLong()).isEqualTo(3 * 1024);
        Run human = Run.of("check-deploy", plan.toString(), "--provide", "global=8KiB");
        assertThat(human.exit()).isEqualTo(6);
        assertThat(human.err()).contains("needs 11264 bytes").contains("provides 8192").contains("short by 3072");
    }

    @Test
    void aReservationPastTheFormatLimitExits3WithTheNumbers() throws IOException {
        Path w = file("fmt.json", """
                { "buffers": [ { "name": "t1", "size": 21, "space": "global", "live": [0, 0] } ] }
                """);
        Run r = Run.of("plan", w.toString(), "--target", "teaching", "--json");
        assertThat(r.exit()).isEqualTo(3);
        JsonNode e = error(r);
        assertThat(e.get("category").asText()).isEqualTo("address-not-encodable");
        assertThat(e.get("buffer").asText()).isEqualTo("t1");
        assertThat(e.get("start").asLong()).isZero();
        assertThat(e.get("requested").asLong()).isEqualTo(21);
        assertThat(e.get("reserved").asLong()).isEqualTo(30);
        assertThat(e.get("limit").asLong()).isEqualTo(29);
        assertThat(e.get("limitSource").asText()).contains("format teach");
        Run human = Run.of("plan", w.toString(), "--target", "teaching");
        assertThat(human.err()).contains("21 bytes requested, 30 reserved").contains("format teach");
    }

    @Test
    void anAlignmentOverflowExits4() throws IOException {
        Path w = file("ovf.json", """
                { "buffers": [ { "name": "huge", "size": "0x7FFF_FFFF_FFFF_FFF0", "space": "global",
                                 "live": [0, 0] } ] }
                """);
        Run r = Run.of("plan", w.toString(), "--json");
        assertThat(r.exit()).isEqualTo(4);
        JsonNode e = error(r);
        assertThat(e.get("category").asText()).isEqualTo("arithmetic-overflow");
        assertThat(e.get("buffer").asText()).isEqualTo("huge");
        assertThat(e.get("alignment").asLong()).isEqualTo(64);
        Path lcm = file("lcm.json", """
                { "buffers": [ { "name": "odd", "size": 1, "space": "global", "alignment": "0x4000_0000_0000_0001",
                                 "live": [0, 0] } ] }
                """);
        Run r2 = Run.of("plan", lcm.toString(), "--json");
        assertThat(r2.exit()).isEqualTo(4);
        assertThat(error(r2).get("operation").asText()).isEqualTo("lcm");
    }

    @Test
    void aLocalSpaceTooSmallExits5AndSaysWhetherItIsProvable() throws IOException {
        // the seed's teaching case: 30 fixed bytes and 21 requested bytes reserving 30 in 55
        Path provable = file("teach.json", """
                { "buffers": [ { "name": "t1", "size": 21, "space": "local", "alignment": 10, "live": [1, 3] } ],
                  "fixed":   [ { "name": "abi", "space": "local", "offset": 0, "size": 30, "live": [0, 3] } ] }
                """);
        Run r = Run.of("plan", provable.toString(), "--target", "teaching", "--json");
        assertThat(r.exit()).isEqualTo(5);
        JsonNode e = error(r);
        assertThat(e.get("category").asText()).isEqualTo("capacity-exceeded");
        assertThat(e.get("buffer").asText()).isEqualTo("t1");
        assertThat(e.get("space").asText()).isEqualTo("local");
        assertThat(e.get("start").asLong()).isEqualTo(30);
        assertThat(e.get("requested").asLong()).isEqualTo(21);
        assertThat(e.get("reserved").asLong()).isEqualTo(30);
        assertThat(e.get("alignment").asLong()).isEqualTo(10);
        assertThat(e.get("limit").asLong()).isEqualTo(55);
        assertThat(e.get("limitSource").asText()).isEqualTo("space local: capacity 55");
        assertThat(e.get("provablyInfeasible").asBoolean()).isTrue();
        assertThat(e.get("step").asInt()).isEqualTo(1);
        assertThat(e.get("message").asText()).contains("only 25 bytes are free").contains("60").contains("5 bytes over");

        // 10 fixed bytes in the middle of 55 and 30 more bytes: 40 bytes fit, no placement does
        Path fragmented = file("frag.json", """
                { "buffers": [ { "name": "wide", "size": 30, "space": "local", "live": [0, 0] } ],
                  "fixed":   [ { "name": "mid", "space": "local", "offset": 20, "size": 10, "live": [0, 0] } ] }
                """);
        Run f = Run.of("plan", fragmented.toString(), "--target", "teaching", "--json");
        assertThat(f.exit()).isEqualTo(5);
        JsonNode fe = error(f);
        assertThat(fe.get("provablyInfeasible").asBoolean()).isFalse();
        assertThat(fe.has("step")).isFalse();
        assertThat(fe.get("message").asText()).contains("complete search proved");
        assertThat(fe.get("infeasibleSubset")).extracting(JsonNode::asText).containsExactlyInAnyOrder("mid", "wide");
        Run greedy = Run.of("plan", fragmented.toString(), "--target", "teaching", "--solver", "greedy");
        assertThat(greedy.exit()).isEqualTo(5);
        assertThat(greedy.err()).contains("try --solver exact");
    }

    @Test
    void aCorruptFixedRegionExits2() throws IOException {
        Path neg = file("neg.json", """
                { "buffers": [], "fixed": [ { "name": "abi", "space": "global", "offset": -64, "size": 10,
                                              "live": [0, 0] } ] }
                """);
        Run r = Run.of("plan", neg.toString(), "--json");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(error(r).get("message").asText()).contains("fixed[0]").contains("earlier stage's record is corrupt");
        Path wrap = file("wrap.json", """
                { "buffers": [], "fixed": [ { "name": "abi", "space": "global", "offset": "0x7FFF_FFFF_FFFF_FFF0",
                                              "size": 32, "live": [0, 0] } ] }
                """);
        Run r2 = Run.of("plan", wrap.toString());
        assertThat(r2.exit()).isEqualTo(2);
        assertThat(r2.err()).contains("earlier stage's record is corrupt").contains("past 2^63-1");
        Path overlap = file("overlap.json", """
                { "buffers": [], "fixed": [
                  { "name": "a", "space": "global", "offset": 0, "size": 32, "live": [0, 2] },
                  { "name": "b", "space": "global", "offset": 16, "size": 32, "live": [2, 3] } ] }
                """);
        Run r3 = Run.of("plan", overlap.toString());
        assertThat(r3.exit()).isEqualTo(2);
        assertThat(r3.err()).contains("corrupt").contains("overlaps");
    }
}
