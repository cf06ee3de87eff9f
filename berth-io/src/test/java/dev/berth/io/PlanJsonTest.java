package dev.berth.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.TestData;
import dev.berth.artifact.Assignment;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.measure.SpaceAssembler;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import dev.berth.target.Space;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import dev.berth.workload.Workload;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The plan artifact: golden files of versions 1, 2 and 3, exact round trips, strict reader. The
 * version 1 and 2 golden files are also the fixtures that show Berth still reads older plans.
 */
class PlanJsonTest {

    /**
     * A version 1 plan built by hand with every kind of entry, so the golden file does not move
     * with the solvers: its spaces say nothing about optimality.
     */
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
        return new Plan(target, "example", SolverChoice.BEST_FIT, spaces, buffers, ds);
    }

    /**
     * The same plan in version 2: global proved optimal by a search (its lower bound of live bytes
     * is lower), sram optimal at its lower bound, weights left open by the work budget.
     */
    static Plan handBuiltV2() {
        Plan v1 = handBuilt();
        Map<String, SpaceMetrics> spaces = new LinkedHashMap<>();
        spaces.put("global", with(v1.spaces().get("global"), new Optimality(SolverKind.EXACT, 5376,
                Optimality.Proof.SEARCH, Optional.empty(), false)));
        spaces.put("sram", with(v1.spaces().get("sram"), new Optimality(SolverKind.SKYLINE, 4096,
                Optimality.Proof.LOWER_BOUND, Optional.empty(), false)));
        spaces.put("weights", with(v1.spaces().get("weights"), new Optimality(SolverKind.BEST_FIT, 0,
                Optimality.Proof.LOWER_BOUND, Optional.empty(), false)));
        return new Plan(v1.target(), v1.workload(), SolverChoice.AUTO, spaces, v1.buffers(), v1.descriptors());
    }

    /**
     * The version 2 plan with an assignment (version 3): t0 had the candidates sram and global and
     * is in global, because sram was full at step 1; the cost is open between its bound and itself.
     */
    static Plan handBuiltV3() {
        Plan v2 = handBuiltV2();
        Assignment a = new Assignment(8192 + 300, 4096 + 300, 300, Assignment.Proof.OPEN,
                List.of(new Assignment.Choice("t0", "global", 1, 8192, Optional.of(new Assignment.Why("sram", 1, 260000,
                        262144, 4096, List.of("x", "y"), Assignment.Reason.FULL)))),
                List.of(new Assignment.Baseline(Assignment.Baseline.FIRST_FIT, OptionalLong.of(8192 + 300)),
                        new Assignment.Baseline(Assignment.Baseline.FASTEST_BANK_FIRST, OptionalLong.empty())));
        return new Plan(v2.target(), v2.workload(), v2.solver(), v2.spaces(), v2.buffers(), v2.descriptors(),
                Optional.of(a));
    }

    private static SpaceMetrics with(SpaceMetrics m, Optimality o) {
        return new SpaceMetrics(m.kind(), m.capacity(), m.highWater(), m.peakLive(), m.peakStep(),
                m.generationOverhead(), m.runtimeReserve(), Optional.of(o));
    }

    @Test
    void theWriterMatchesTheGoldenFiles() throws IOException {
        assertThat(PlanJson.toString(handBuilt())).isEqualTo(golden("/golden/example.plan.json"));
        assertThat(PlanJson.toString(handBuiltV2())).isEqualTo(golden("/golden/example.v2.plan.json"));
        assertThat(PlanJson.toString(handBuiltV3())).isEqualTo(golden("/golden/example.v3.plan.json"));
    }

    private String golden(String resource) throws IOException {
        try (InputStream in = getClass().getResourceAsStream(resource)) {
            assertThat(in).as("golden file %s; regenerate it only on purpose", resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aVersion1FileIsStillReadAndStaysVersion1() throws IOException {
        Plan back = PlanJson.read(parse(golden("/golden/example.plan.json")));
        assertThat(back.version()).isEqualTo(1);
        assertThat(back).isEqualTo(handBuilt());
        assertThat(back.spaces().values()).allSatisfy(m -> assertThat(m.optimality()).isEmpty());
        assertThat(PlanJson.toString(back)).isEqualTo(golden("/golden/example.plan.json"));
    }

    @Test
    void aVersion2FileIsStillReadAndStaysVersion2() throws IOException {
        Plan back = PlanJson.read(parse(golden("/golden/example.v2.plan.json")));
        assertThat(back.version()).isEqualTo(2);
        assertThat(back.assignment()).isEmpty();
        assertThat(back).isEqualTo(handBuiltV2());
        assertThat(PlanJson.toString(back)).isEqualTo(golden("/golden/example.v2.plan.json"));
    }

    /** A version 1 space's peak step is the one assembler's for its buffers, as the planner's metrics are. */
    @Test
    void aVersion1PlansPeakStepsAreTheAssemblersForItsBuffers() throws IOException {
        Plan back = PlanJson.read(parse(golden("/golden/example.plan.json")));
        for (Space s : back.target().spaces().values()) {
            List<PlannedBuffer> in = back.buffers().stream().filter(b -> b.space().equals(s.name())).toList();
            SpaceMetrics measured = SpaceAssembler.metrics(s, in, Optional.empty());
            assertThat(back.metrics(s).peakStep()).as(s.name()).isEqualTo(measured.peakStep());
            assertThat(back.metrics(s)).as(s.name()).isEqualTo(SpaceAssembler.withPeakStep(back.metrics(s), in));
        }
        assertThat(back.spaces().values()).extracting(SpaceMetrics::peakStep).anyMatch(step -> step > 0);
    }

    /**
     * A version 1 plan's peak step is measured from its buffers when it is read, before the plan
     * validator sees it: a buffer whose end is past 2^63-1 is read and left to the validator's
     * verdict, not measured into an arithmetic overflow; bytes live at one step past 2^63-1 are
     * invalid-input naming the space's peakLive.
     */
    @Test
    void aCorruptVersion1PlanIsReadForTheValidatorOrRejectedAtTheFieldNotMeasuredIntoAnOverflow() {
        ObjectNode root = (ObjectNode) parse(PlanJson.toBytes(handBuilt()));
        ((ObjectNode) root.get("buffers").get(0)).put("offset", Long.MAX_VALUE);
        Plan read = PlanJson.read(root);
        assertThat(read.version()).isEqualTo(1);
        assertThat(PlanValidator.validate(read)).isInstanceOfSatisfying(
                Verdict.Invalid.class, v -> assertThat(v.toString()).contains("t0"));
        rejects(r -> {
            ((ObjectNode) r.get("buffers").get(0)).put("reserved", 1L << 62);
            ((ObjectNode) r.get("buffers").get(1)).put("reserved", 1L << 62);
        }, "spaces.global.peakLive: 5376 in the plan, but in its buffers the reserved bytes live at step 0 pass 2^63-1");
    }

    @Test
    void roundTripIsExact() {
        for (Plan p : List.of(handBuilt(), handBuiltV2(), handBuiltV3())) {
            byte[] once = PlanJson.toBytes(p);
            Plan back = PlanJson.read(Json.MAPPER.valueToTree(parse(once)));
            assertThat(back).isEqualTo(p);
            assertThat(PlanJson.toBytes(back)).isEqualTo(once);
        }
        assertThat(handBuiltV2().version()).isEqualTo(2);
        assertThat(handBuiltV3().version()).isEqualTo(3);
    }

    @Test
    void theAssignmentRoundTripsWithItsCostBoundProofAndReasons() {
        Plan back = PlanJson.read(parse(PlanJson.toBytes(handBuiltV3())));
        Assignment a = back.assignment().orElseThrow();
        assertThat(a.cost()).isEqualTo(8492);
        assertThat(a.lowerBound()).isEqualTo(4396);
        assertThat(a.pinnedCost()).isEqualTo(300);
        assertThat(a.optimal()).isFalse();
        Assignment.Why why = a.choice("t0").orElseThrow().why().orElseThrow();
        assertThat(why).isEqualTo(new Assignment.Why("sram", 1, 260000, 262144, 4096, List.of("x", "y"),
                Assignment.Reason.FULL));
        assertThat(a.baseline(Assignment.Baseline.FIRST_FIT)).hasValue(8492);
        assertThat(a.baseline(Assignment.Baseline.FASTEST_BANK_FIRST)).isEmpty();
        // every proof and reason keeps its id
        for (Assignment.Proof proof : Assignment.Proof.values()) {
            for (Assignment.Reason reason : Assignment.Reason.values()) {
                Plan p = withAssignment(proof, reason);
                Plan again = PlanJson.read(parse(PlanJson.toBytes(p)));
                assertThat(again).isEqualTo(p);
                assertThat(again.assignment().orElseThrow().proof()).isEqualTo(proof);
            }
        }
    }

    private static Plan withAssignment(Assignment.Proof proof, Assignment.Reason reason) {
        Plan v3 = handBuiltV3();
        long lower = proof == Assignment.Proof.LOWER_BOUND ? 8492 : 5000;
        Assignment a = new Assignment(8492, lower, 300, proof, List.of(new Assignment.Choice("t0", "global", 1, 8192,
                Optional.of(new Assignment.Why("sram", 0, 0, 262144, 4096, List.of(), reason)))),
                v3.assignment().orElseThrow().baselines());
        return new Plan(v3.target(), v3.workload(), v3.solver(), v3.spaces(), v3.buffers(), v3.descriptors(),
                Optional.of(a));
    }

    @Test
    void anOpenBracketRoundTripsWithItsReason() {
        Plan v2 = handBuiltV2();
        for (Optimality.Open why : Optimality.Open.values()) {
            Map<String, SpaceMetrics> spaces = new LinkedHashMap<>(v2.spaces());
            spaces.put("global", with(v2.spaces().get("global"), new Optimality(SolverKind.GREEDY, 5000,
                    Optimality.Proof.OPEN, Optional.of(why), why == Optimality.Open.TIME_LIMIT)));
            Plan p = new Plan(v2.target(), v2.workload(), SolverChoice.GREEDY, spaces, v2.buffers(), v2.descriptors());
            byte[] once = PlanJson.toBytes(p);
            assertThat(new String(once, StandardCharsets.UTF_8)).contains("\"open\": \"" + why.id() + "\"");
            Plan back = PlanJson.read(parse(once));
            assertThat(back).isEqualTo(p);
            assertThat(PlanJson.toBytes(back)).isEqualTo(once);
        }
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
        assertThat(back.version()).isEqualTo(2);
        assertThat(PlanJson.toBytes(back)).isEqualTo(once);
    }

    private static JsonNode parse(byte[] bytes) {
        try {
            return Json.parse(new ByteArrayInputStream(bytes), "test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void rejects(Consumer<ObjectNode> edit, String... expected) {
        rejects(handBuilt(), edit, expected);
    }

    private static void rejects(Plan plan, Consumer<ObjectNode> edit, String... expected) {
        ObjectNode root = (ObjectNode) parse(PlanJson.toBytes(plan));
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
        // every version has its descriptors, [] when nothing is tiled: a missing key is not read as []
        for (Plan p : List.of(handBuilt(), handBuiltV2(), handBuiltV3())) {
            rejects(p, r -> r.remove("descriptors"), "descriptors: required key 'descriptors' is missing");
        }
        rejects(r -> r.put("format", "tflm-plan"), "not a Berth plan");
        rejects(r -> r.put("version", 5), "versions 1 to 4, not 5");
        rejects(r -> r.put("version", 0), "versions 1 to 4, not 0");
        // a version 1 file with version 2 keys, and a version 2 file without them
        rejects(r -> ((ObjectNode) r.get("spaces").get("sram")).put("proof", "search"), "spaces.sram.proof");
        rejects(r -> r.put("version", 2), "spaces.global.", "is missing");
        rejects(r -> r.put("solver", "simulated-annealing"), "solver", "auto, greedy, best-fit, skyline, exact");
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

    @Test
    void version2FieldsAreChecked() {
        Plan v2 = handBuiltV2();
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).remove("proof"), "spaces.global.proof", "missing");
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).remove("peakStep"), "spaces.global.peakStep",
                "missing");
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).put("peakStep", -2), "spaces.global.peakStep");
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).put("proof", "probably"), "spaces.global.proof",
                "lower-bound, search, open");
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).put("solver", "auto"), "spaces.global.solver",
                "greedy, best-fit, skyline, exact");
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).put("proof", "open"), "spaces.global.open",
                "says why");
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).put("open", "work-budget"), "spaces.global.open",
                "no open bracket");
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).put("proof", "open").put("open", "soon"),
                "spaces.global.open", "work-budget, time-limit");
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).put("proof", "open").put("open", "time-limit"),
                "spaces.global.timeLimited", "left open by the time limit");
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).put("timeLimited", "no"),
                "spaces.global.timeLimited", "true or false");
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).put("lowerBound", -5), "spaces.global.lowerBound");
        rejects(v2, r -> ((ObjectNode) r.get("spaces").get("global")).put("color", 1), "spaces.global.color");
    }

    @Test
    void version3FieldsAreChecked() {
        Plan v2 = handBuiltV2();
        Plan v3 = handBuiltV3();
        // an assignment only in version 3, and always there
        rejects(v2, r -> r.set("assignment", parse(PlanJson.toBytes(v3)).get("assignment")), "assignment",
                "version 2 plan has none");
        rejects(v3, r -> r.remove("assignment"), "assignment", "is missing");
        rejects(v3, r -> r.put("version", 2), "assignment", "version 2 plan has none");
        rejects(v3, r -> assignment(r).put("seed", 1), "assignment.seed", "unknown key");
        rejects(v3, r -> assignment(r).remove("lowerBound"), "assignment.lowerBound", "missing");
        rejects(v3, r -> assignment(r).put("cost", -1), "assignment.cost", "0..2^63-1");
        rejects(v3, r -> assignment(r).put("cost", 9000), "assignment.cost", "9000 is not pinnedCost plus");
        rejects(v3, r -> assignment(r).put("lowerBound", 9000), "assignment.lowerBound", "above the cost");
        rejects(v3, r -> assignment(r).put("pinnedCost", 5000), "assignment.pinnedCost", "above the lower bound");
        rejects(v3, r -> assignment(r).put("proof", "lower-bound"), "assignment.proof", "not the lower bound");
        rejects(v3, r -> assignment(r).put("proof", "likely"), "assignment.proof", "lower-bound, search, open");
        rejects(v3, r -> ((ObjectNode) assignment(r).get("baselines")).put("greedy", 1), "assignment.baselines.greedy");
        rejects(v3, r -> ((ObjectNode) assignment(r).get("baselines")).put("first-fit", "x"),
                "assignment.baselines.first-fit");
        rejects(v3, r -> choice(r).put("buffer", "abi.input"), "assignment.choices[0].buffer", "not a tensor");
        rejects(v3, r -> choice(r).put("buffer", "nobody"), "assignment.choices[0].buffer", "not a tensor");
        rejects(v3, r -> choice(r).put("buffer", ""), "assignment.choices[0].buffer", "empty");
        rejects(v3, r -> choice(r).put("space", "sram"), "assignment.choices[0].space", "holds t0 in global");
        rejects(v3, r -> choice(r).put("rank", 0), "assignment.choices[0].why", "nothing to explain");
        rejects(v3, r -> choice(r).put("rank", -1), "assignment.choices[0].rank");
        rejects(v3, r -> choice(r).put("colour", 1), "assignment.choices[0].colour");
        rejects(v3, r -> {
            ((ArrayNode) assignment(r).get("choices")).add(choice(r).deepCopy());
            assignment(r).put("cost", 8492 + 8192);
        }, "assignment.choices[1].buffer", "two choices");
        rejects(v3, r -> why(r).put("reason", "busy"), "assignment.choices[0].why.reason", "full, fragmented");
        rejects(v3, r -> why(r).put("space", "l2"), "assignment.choices[0].why.space", "not a space of target");
        rejects(v3, r -> why(r).remove("holders"), "assignment.choices[0].why.holders", "missing");
        rejects(v3, r -> why(r).put("step", -1), "assignment.choices[0].why.step");
        rejects(v3, r -> why(r).put("liveBytes", "lots"), "assignment.choices[0].why.liveBytes");
        rejects(v3, r -> why(r).putArray("holders").add("a").add("b").add("c").add("d").add("e").add("f"),
                "assignment.choices[0].why.holders", "at most 5");
        rejects(v3, r -> why(r).putArray("holders").add(3), "assignment.choices[0].why.holders[0]");
    }

    private static ObjectNode assignment(ObjectNode root) {
        return (ObjectNode) root.get("assignment");
    }

    private static ObjectNode choice(ObjectNode root) {
        return (ObjectNode) assignment(root).get("choices").get(0);
    }

    private static ObjectNode why(ObjectNode root) {
        return (ObjectNode) choice(root).get("why");
    }

    @Test
    void aPlannedWorkloadWithCandidatesRoundTripsAsVersion3() {
        var target = TargetJson.load("npu-ref");
        Workload w = WorkloadJson.read(parse("""
                { "workload": "fs", "buffers": [
                  { "name": "a", "size": "192KiB", "space": ["sram", "global"], "accesses": 3, "live": [0, 2] },
                  { "name": "b", "size": "128KiB", "space": ["sram", "global"], "accesses": 2, "live": [1, 3] },
                  { "name": "c", "size": "4KiB", "space": "global", "accesses": 5, "live": [0, 3] } ] }
                """.getBytes(StandardCharsets.UTF_8)), "fs", target);
        PlanResult r = Planner.plan(target, w, Planner.Options.defaults());
        Plan p = r.plan();
        Assignment a = p.assignment().orElseThrow();
        assertThat(r.assignment()).contains(a);
        // 320 KiB do not fit the 256 KiB sram at steps 1-2: a (3 x 192 KiB) stays, b (2 x 128 KiB) goes
        assertThat(a.choice("a").orElseThrow().space()).isEqualTo("sram");
        assertThat(a.choice("b").orElseThrow().why().orElseThrow().reason()).isEqualTo(Assignment.Reason.FULL);
        assertThat(a.cost()).isEqualTo(2L * 128 * 1024 + 5L * 4096);
        byte[] once = PlanJson.toBytes(p);
        assertThat(new String(once, StandardCharsets.UTF_8)).contains("\"version\": 3", "\"assignment\": {",
                "\"holders\": [\"a\"]");
        Plan back = PlanJson.read(parse(once));
        assertThat(back).isEqualTo(p);
        assertThat(back.version()).isEqualTo(3);
        assertThat(PlanJson.toBytes(back)).isEqualTo(once);
    }

    private static JsonNode parse(String s) {
        return parse(s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@link BufferLines} writes the buffers that need no escape straight into the output: over
     * seeded workloads whose names mix plain text with what must be escaped (quote, backslash,
     * controls, DEL, C1, non-ASCII), tiled buffers with {@code of}, and the examples, the file is
     * byte for byte the one the generator alone writes.
     */
    @ParameterizedTest
    @CsvSource({"1", "2", "3", "4", "5"})
    void buffersWrittenStraightAreTheGeneratorsBytes(long seed) throws IOException {
        var target = TargetJson.load("npu-ref");
        SplittableRandom rnd = new SplittableRandom(seed);
        String[] pieces = {"t", "conv_1", "a.b", "\"", "\\", "\u0001", "\u007f", "\u009b", "\u00e9", "\u4e2d", " ", "/", "~"};
        Workload.Builder b = Workload.builder("w" + seed);
        int n = 40 + rnd.nextInt(40);
        for (int i = 0; i < n; i++) {
            StringBuilder name = new StringBuilder("b" + i);
            for (int k = rnd.nextInt(3); k > 0; k--) {
                name.append(pieces[rnd.nextInt(pieces.length)]);
            }
            int first = rnd.nextInt(20);
            b.buffer(new BufferSpec(name.toString(), 1 + rnd.nextInt(1 << 20), target.space("global", "t"),
                    1L << rnd.nextInt(8), new Lifetime(first, first + rnd.nextInt(10)), Optional.empty()));
        }
        List<Plan> plans = List.of(Planner.plan(target, b.build(), Planner.Options.defaults()).plan(),
                Planner.plan(target, WorkloadJson.read(TestData.root().resolve("examples/tiled.json"), target),
                        Planner.Options.defaults()).plan(), handBuilt());
        for (Plan plan : plans) {
            ByteArrayOutputStream straight = new ByteArrayOutputStream();
            ByteArrayOutputStream generator = new ByteArrayOutputStream();
            PlanJson.write(plan, straight, true);
            PlanJson.write(plan, generator, false);
            assertThat(straight.toString(StandardCharsets.UTF_8)).isEqualTo(generator.toString(StandardCharsets.UTF_8));
            assertThat(straight.toByteArray()).isEqualTo(PlanJson.toBytes(plan));
        }
        // the plans did mix both kinds of entry
        assertThat(plans.get(0).buffers()).anyMatch(p -> p.name().contains("\"")).anyMatch(p -> p.name().matches("b[0-9]+"));
    }
}
