package dev.berth.io;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.plan.Planner;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Workload reading (contract §5): strict, every rejection invalid-input with its path. */
class WorkloadJsonTest {
    /** A field's error in a workload file names the file first, then the field (issue 27), in the message only. */
    @Test
    void aFieldErrorInAWorkloadFileNamesTheFile(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("w.json"),
                "{\"workload\": \"w\", \"buffers\": [{\"name\": \"a\", \"size\": 64, \"space\": \"nope\", \"live\": [0, 1]}]}");
        assertThatThrownBy(() -> WorkloadJson.read(f, TargetJson.load("npu-ref")))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.failure().message()).startsWith(f + ": buffers[0].space: unknown space 'nope'");
                    assertThat(e.failure().fields()).containsEntry("path", "buffers[0].space").containsEntry("text", "nope");
                });
    }

    private static final Target NPU_REF = TargetJson.load("npu-ref");

    static Workload read(String json) {
        try {
            return WorkloadJson.read(Json.parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "w.json"),
                    "w", NPU_REF);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads and checks against npu-ref, as {@code plan} does. */
    private static void plan(String json) {
        Planner.plan(NPU_REF, read(json), Planner.Options.defaults());
    }

    @Test
    void readsTheContractExample() {
        Workload w = read("""
                { "workload": "example",
                  "buffers": [
                    { "name": "t0",  "size": "4KiB", "space": "global", "live": [0, 2] },
                    { "name": "t1",  "size": 21, "space": "sram", "alignment": 10, "live": [1, 3] },
                    { "name": "big", "size": "1MiB", "space": "global", "live": [2, 5],
                      "tile": { "through": "sram", "buffers": 2 } } ],
                  "fixed": [ { "name": "abi.input", "space": "global", "offset": 0, "size": "1KiB", "live": [0, 5] } ] }
                """);
        assertThat(w.name()).isEqualTo("example");
        assertThat(w.buffers()).hasSize(3);
        assertThat(w.buffers().get(1).alignment()).isEqualTo(10);
        assertThat(w.buffers().get(2).tile()).isPresent();
        assertThat(w.fixed().get(0).size()).isEqualTo(1024);
        assertThat(w.steps()).isEqualTo(6);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown top-level key  | { "buffers": [], "budget": 1 }                                                                    | unknown key 'budget'
            buffers missing        | { "fixed": [] }                                                                                   | buffers
            unknown buffer key     | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [0, 0], "colour": 1 } ] }     | buffers[0].colour
            missing size           | { "buffers": [ { "name": "a", "space": "global", "live": [0, 0] } ] }                             | buffers[0].size
            missing live           | { "buffers": [ { "name": "a", "size": 1, "space": "global" } ] }                                  | buffers[0].live
            reversed interval      | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [3, 1] } ] }                  | reversed
            empty interval         | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [] } ] }                      | buffers[0].live
            negative step          | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [-1, 1] } ] }                 | buffers[0].live[0]
            step past 2^31-1       | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [0, 2147483648] } ] }         | buffers[0].live[1]
            fractional step        | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [0, 1.5] } ] }                | buffers[0].live[1]
            fractional size        | { "buffers": [ { "name": "a", "size": 20.0, "space": "global", "live": [0, 0] } ] }               | no fractions
            SI unit                | { "buffers": [ { "name": "a", "size": "4KB", "space": "global", "live": [0, 0] } ] }              | KiB
            zero alignment         | { "buffers": [ { "name": "a", "size": 1, "space": "global", "alignment": 0, "live": [0, 0] } ] }  | buffers[0].alignment
            tile without through   | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [0, 0], "tile": { "buffers": 2 } } ] } | buffers[0].tile.through
            tile with zero buffers | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [0, 0], "tile": { "through": "sram", "buffers": 0 } } ] } | buffers[0].tile.buffers
            fixed negative offset  | { "buffers": [], "fixed": [ { "name": "f", "space": "global", "offset": -1, "size": 1, "live": [0, 0] } ] } | corrupt
            fixed missing size     | { "buffers": [], "fixed": [ { "name": "f", "space": "global", "offset": 0, "live": [0, 0] } ] }     | fixed[0].size
            not an object          | [ 1, 2 ]                                                                                          | expected a JSON object
            empty buffer name      | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [0, 0] }, { "name": "", "size": 1, "space": "global", "live": [0, 0] } ] } | buffers[1].name: must not be empty
            empty fixed name       | { "buffers": [], "fixed": [ { "name": "", "space": "global", "offset": 0, "size": 1, "live": [0, 0] } ] } | fixed[0].name: must not be empty
            """)
    void readerRejections(String what, String json, String expected) {
        assertThatThrownBy(() -> read(json)).as(what).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.getMessage()).contains(expected);
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown space          | { "buffers": [ { "name": "a", "size": 1, "space": "dram", "live": [0, 0] } ] }                    | buffers[0].space: unknown space 'dram'
            duplicate names        | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [0, 0] }, { "name": "a", "size": 2, "space": "global", "live": [1, 1] } ] } | buffers[1].name: duplicate name 'a'
            fixed and buffer name  | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [0, 0] } ], "fixed": [ { "name": "a", "space": "global", "offset": 0, "size": 1, "live": [0, 0] } ] } | fixed[0].name: duplicate
            fixed unknown space    | { "buffers": [], "fixed": [ { "name": "f", "space": "rom", "offset": 0, "size": 1, "live": [0, 0] } ] } | fixed[0].space
            tile through logical   | { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [0, 0], "tile": { "through": "global", "buffers": 2 } } ] } | tiles go through a local space
            reserved name          | { "buffers": [ { "name": "instructions", "size": 1, "space": "global", "live": [0, 0] } ] }        | reserved
            """)
    void checksAgainstTheTarget(String what, String json, String expected) {
        assertThatThrownBy(() -> plan(json)).as(what).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.getMessage()).contains(expected);
        });
    }

    @Test
    void aSpaceMayBeAListOfCandidatesWithAccesses() {
        Workload w = read("""
                { "buffers": [
                    { "name": "a", "size": 64, "space": ["sram", "global"], "accesses": 3, "live": [0, 1] },
                    { "name": "b", "size": 64, "space": ["global"], "live": [0, 1] },
                    { "name": "c", "size": 64, "space": "global", "accesses": 0, "live": [1, 2] } ] }
                """);
        assertThat(w.buffers().get(0).candidates()).containsExactly(NPU_REF.spaces().get("sram"),
                NPU_REF.spaces().get("global"));
        assertThat(w.buffers().get(0).accesses()).isEqualTo(3);
        // a list of one is that space given alone, accessed once by default
        assertThat(w.buffers().get(1)).isEqualTo(BufferSpec.named("b").size(64)
                .in(NPU_REF.spaces().get("global")).live(0, 1).build());
        assertThat(w.buffers().get(2).accesses()).isZero();
        var r = Planner.plan(NPU_REF, w, Planner.Options.defaults());
        assertThat(r.plan().buffer("a").orElseThrow().space()).isEqualTo("sram");
        assertThat(r.assignment().orElseThrow().cost()).isEqualTo(64);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            empty list             | { "buffers": [ { "name": "act", "size": 1, "space": [], "live": [0, 0] } ] }                        | buffers[0].space: buffer 'act': the list of candidate spaces is empty
            duplicate candidate    | { "buffers": [ { "name": "act", "size": 1, "space": ["sram", "global", "sram"], "live": [0, 0] } ] } | buffers[0].space[2]: buffer 'act': space 'sram' is already a candidate
            unknown candidate      | { "buffers": [ { "name": "act", "size": 1, "space": ["sram", "dram"], "live": [0, 0] } ] }          | buffer 'act': buffers[0].space[1]: unknown space 'dram'
            candidate not a string | { "buffers": [ { "name": "act", "size": 1, "space": ["sram", 3], "live": [0, 0] } ] }               | buffers[0].space[1]
            negative accesses      | { "buffers": [ { "name": "act", "size": 1, "space": ["sram", "global"], "accesses": -1, "live": [0, 0] } ] } | buffers[0].accesses: expected a whole number in 0..2^63-1 (how many times buffer 'act'
            accesses as a string   | { "buffers": [ { "name": "act", "size": 1, "space": "global", "accesses": "3", "live": [0, 0] } ] } | buffers[0].accesses
            fractional accesses    | { "buffers": [ { "name": "act", "size": 1, "space": "global", "accesses": 1.5, "live": [0, 0] } ] } | buffers[0].accesses
            tiled with candidates  | { "buffers": [ { "name": "act", "size": 1, "space": ["sram", "global"], "live": [0, 0], "tile": { "through": "sram", "buffers": 2 } } ] } | buffer 'act' is tiled
            """)
    void invalidCandidatesNameTheBuffer(String what, String json, String expected) {
        assertThatThrownBy(() -> read(json)).as(what).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.getMessage()).contains(expected);
        });
    }
}
