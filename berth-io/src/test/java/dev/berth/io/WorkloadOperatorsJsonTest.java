package dev.berth.io;

import dev.berth.TestData;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.schedule.Reuse;
import dev.berth.schedule.Role;
import dev.berth.target.Target;
import dev.berth.workload.BufferUse;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Operators;
import dev.berth.workload.Overwrite;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Workloads with operators (contract §5.3): roles, steps of the listed order, and every rejection typed with its path. */
class WorkloadOperatorsJsonTest {
    private static final Target NPU_REF = TargetJson.load("npu-ref");

    private static Workload read(String json) {
        return WorkloadJsonTest.read(json);
    }

    private static final String CHAIN = """
            { "buffers": [
                { "name": "x", "size": 64, "space": "global" },
                { "name": "w", "size": 8, "space": "weights", "role": "constant" },
                { "name": "a", "size": 64, "space": "global" },
                { "name": "b", "size": 64, "space": "global", "overwrites": [ { "input": "a", "reason": "elementwise" } ] },
                { "name": "y", "size": 32, "space": "global", "role": "output", "overwrites": [ { "input": "b", "reason": "view" } ] } ],
              "operators": [
                { "name": "conv", "reads": ["x", "w"], "writes": ["a"] },
                { "name": "relu", "reads": ["a"], "writes": ["b"] },
                { "name": "flat", "reads": ["b"], "writes": ["y"] } ],
              "keepOrder": [ ["conv", "flat"] ] }
            """;

    @Test
    void readsOperatorsRolesAndTheListedOrdersSteps() {
        Workload w = read(CHAIN);
        Operators.Listed listed = (Operators.Listed) w.operators();
        assertThat(listed.operators()).extracting(o -> o.name()).containsExactly("conv", "relu", "flat");
        assertThat(listed.keepOrder()).containsExactly(List.of("conv", "flat"));
        assertThat(listed.uses()).containsExactly(new BufferUse("x", Role.INPUT), new BufferUse("w", Role.CONSTANT),
                new BufferUse("a", Role.INTERMEDIATE),
                new BufferUse("b", Role.INTERMEDIATE, List.of(new Overwrite("a", Reuse.ELEMENTWISE))),
                new BufferUse("y", Role.OUTPUT, List.of(new Overwrite("b", Reuse.VIEW))));
        assertThat(w.buffers()).extracting(b -> b.live()).containsExactly(Lifetime.of(0, 0), Lifetime.of(0, 2),
                Lifetime.of(0, 1), Lifetime.of(1, 2), Lifetime.of(2, 2));
        assertThat(w.steps()).isEqualTo(3);
    }

    @Test
    void aFileReadsAsItsTree(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Workload fromFile = WorkloadJson.read(Files.writeString(dir.resolve("chain.json"), CHAIN), NPU_REF);
        assertThat(fromFile.name()).isEqualTo("chain");
        assertThat(new Workload("w", fromFile.buffers(), fromFile.fixed(), fromFile.operators())).isEqualTo(read(CHAIN));
    }

    @Test
    void theExampleReads() {
        Workload w = WorkloadJson.read(TestData.root().resolve("examples/block.json"), NPU_REF);
        assertThat(w.operators()).isInstanceOf(Operators.Listed.class);
        assertThat(w.buffers()).hasSize(9);
        assertThat(w.steps()).isEqualTo(7);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            live with operators   | "name": "x", "size": 64                | "name": "x", "live": [0, 0], "size": 64               | buffers[0].live: unknown key 'live'
            candidate spaces      | "name": "x", "size": 64, "space": "global" | "name": "x", "size": 64, "space": ["sram", "global"] | buffers[0].space: buffer 'x': in a workload with operators each buffer has one space
            bad role              | "role": "constant"                     | "role": "weight"                                      | buffers[1].role: expected input, intermediate, output, constant or variable, got 'weight'
            written input         | "name": "a", "size": 64                | "name": "a", "role": "input", "size": 64              | operators[0].writes[0]: 'a' is a graph input, which no operator writes
            unwritten output      | "name": "x", "size": 64                | "name": "x", "role": "output", "size": 64             | buffers[0]: graph output 'x' is written by no operator
            bad reason            | "reason": "elementwise"                | "reason": "alias"                                     | buffers[3].overwrites[0].reason: expected view or elementwise, got 'alias'
            input not read        | "input": "a"                           | "input": "x"                                          | buffers[3].overwrites[0].input: 'relu' does not read 'x'
            constant written over | "name": "a", "size": 64                | "name": "a", "overwrites": [{"input": "w", "reason": "view"}], "size": 64 | buffers[2].overwrites[0].input: 'w' is a graph constant; graph outputs, constants and variables are never written over
            input over nothing    | "name": "x", "size": 64                | "name": "x", "overwrites": [{"input": "a", "reason": "view"}], "size": 64 | buffers[0].overwrites[0]: 'x' is written by no operator
            """)
    void badBuffersAreTypedWithTheirPath(String what, String from, String to, String message) {
        String bad = CHAIN.replace(from, to);
        assertThat(bad).isNotEqualTo(CHAIN);
        assertThatThrownBy(() -> read(bad)).as(what).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.failure().message()).startsWith(message);
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown buffer read  | "reads": ["a"]          | "reads": ["z"]                 | operators[1].reads[0]: no buffer is named 'z'
            written twice        | "writes": ["y"]         | "writes": ["b"]                | operators[2].writes[0]: 'b' is written by operators[1] 'relu' already
            reads its own output | "reads": ["b"]          | "reads": ["y"]                 | operators[2].reads[0]: 'flat' reads 'y', which it writes itself
            missing writes       | , "writes": ["y"]       | ''                             | operators[2].writes: required key 'writes' is missing
            kept against order   | ["conv", "flat"]        | ["flat", "conv"]               | keepOrder[0][1]: 'conv' is listed before 'flat'
            kept unknown         | ["conv", "flat"]        | ["conv", "fc"]                 | keepOrder[0][1]: no operator is named 'fc'
            """)
    void badOperatorsAreTypedWithTheirPath(String what, String from, String to, String message) {
        String bad = CHAIN.replace(from, to);
        assertThat(bad).isNotEqualTo(CHAIN);
        assertThatThrownBy(() -> read(bad)).as(what).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.failure().message()).startsWith(message);
        });
    }

    @Test
    void keepOrderWithoutOperatorsIsInvalid() {
        assertThatThrownBy(() -> read("""
                { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [0, 0] } ], "keepOrder": [] }
                """)).isInstanceOfSatisfying(BerthException.class, e ->
                assertThat(e.failure().message()).startsWith("keepOrder: only a workload with operators"));
    }

    @Test
    void roleWithoutOperatorsIsAnUnknownKeyAsBefore() {
        assertThatThrownBy(() -> read("""
                { "buffers": [ { "name": "a", "size": 1, "space": "global", "live": [0, 0], "role": "input" } ] }
                """)).isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.failure().message()).isEqualTo(
                "buffers[0].role: unknown key 'role' (allowed: accesses, alignment, live, name, size, space, tile)"));
    }

    @Test
    void aPairAcrossSpacesIsInvalid() {
        String bad = CHAIN.replace("{ \"name\": \"a\", \"size\": 64, \"space\": \"global\" }",
                "{ \"name\": \"a\", \"size\": 64, \"space\": \"sram\" }");
        assertThatThrownBy(() -> read(bad)).isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.failure().message())
                .startsWith("buffers[3].overwrites[0].input: 'b' is in space global, 'a' in sram"));
    }
}
