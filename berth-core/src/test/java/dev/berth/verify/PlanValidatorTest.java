package dev.berth.verify;

import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.plan.Planner;
import dev.berth.plan.Targets;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import dev.berth.workload.TileSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** Each rule of the validator catches its violation, and only a sound plan is valid. */
class PlanValidatorTest {
    private static final AddressFormat F = new AddressFormat("f", 999, EndConvention.EXCLUSIVE);
    private static final AddressFormat NARROW = new AddressFormat("narrow", 199, EndConvention.LAST_BYTE);

    private static Target target() {
        Map<String, AddressFormat> fm = new LinkedHashMap<>();
        fm.put("f", F);
        fm.put("narrow", NARROW);
        Map<String, Space> sp = new LinkedHashMap<>();
        sp.put("g", new Space.Logical("g", F, 4, 0));
        sp.put("l", new Space.Local("l", F, 8, 16, 256));
        return new Target("t", fm, sp, Optional.empty());
    }

    private static PlannedBuffer buf(String name, String space, long offset, long requested, long reserved, long align,
                                     int first, int last, Origin origin) {
        return new PlannedBuffer(name, space, offset, requested, reserved, align, new Lifetime(first, last), origin,
                Optional.empty());
    }

    /** A sound plan: g holds a [0,100) 0..1, b [100,140) 1..2, fx [0,50) 2..3; l holds c [0,240) 0..0. */
    private static Plan sound() {
        List<PlannedBuffer> bs = List.of(
                buf("a", "g", 0, 99, 100, 4, 0, 1, Origin.TENSOR),
                buf("b", "g", 100, 40, 40, 4, 1, 2, Origin.TENSOR),
                buf("fx", "g", 0, 50, 50, 1, 2, 3, Origin.FIXED),
                buf("c", "l", 0, 240, 240, 8, 0, 0, Origin.TENSOR));
        return withBuffers(bs, List.of());
    }

    private static Plan withBuffers(List<PlannedBuffer> bs, List<DescriptorEntry> ds) {
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 140, 1, 0, 0));
        m.put("l", new SpaceMetrics("local", OptionalLong.of(256), 240, 240, 0, 0, 16));
        return new Plan(target(), "w", SolverChoice.AUTO, m, bs, ds);
    }

    private static Plan edit(int index, UnaryOperator<PlannedBuffer> f) {
        Plan p = sound();
        List<PlannedBuffer> bs = new ArrayList<>(p.buffers());
        bs.set(index, f.apply(bs.get(index)));
        return withBuffers(bs, p.descriptors());
    }

    private static void invalid(Plan p, Verdict.Kind kind) {
        Verdict v = PlanValidator.validate(p);
        assertThat(v).isInstanceOf(Verdict.Invalid.class);
        assertThat(((Verdict.Invalid) v).violations()).extracting(Verdict.Violation::kind).contains(kind);
    }

    @Test
    void aSoundPlanIsValid() {
        Verdict v = PlanValidator.validate(sound());
        assertThat(v.valid()).as(v.toString()).isTrue();
        assertThat(((Verdict.Valid) v).checks()).isGreaterThanOrEqualTo(4);
    }

    @Test
    void overlapsInAddressAndTime() {
        invalid(edit(1, b -> buf("b", "g", 96, 40, 40, 4, 1, 2, Origin.TENSOR)), Verdict.Kind.OVERLAP);
        // same addresses at disjoint steps are fine
        Verdict ok = PlanValidator.validate(edit(1, b -> buf("b", "g", 52, 40, 40, 4, 2, 3, Origin.TENSOR)));
        assertThat(ok.toString()).doesNotContain("OVERLAP");
        // a zero-byte reservation overlaps nothing
        assertThat(PlanValidator.validate(edit(1, b -> buf("b", "g", 40, 0, 0, 4, 1, 2, Origin.TENSOR))).toString())
                .doesNotContain("OVERLAP");
    }

    @Test
    void alignmentAndSizes() {
        invalid(edit(1, b -> buf("b", "g", 102, 40, 40, 4, 1, 2, Origin.TENSOR)), Verdict.Kind.MISALIGNED);
        invalid(edit(1, b -> buf("b", "g", 100, 40, 40, 2, 1, 2, Origin.TENSOR)), Verdict.Kind.MISALIGNED);
        invalid(edit(0, b -> buf("a", "g", 0, 99, 104, 4, 0, 1, Origin.TENSOR)), Verdict.Kind.BAD_SIZE);
        invalid(edit(0, b -> buf("a", "g", 0, 99, 96, 4, 0, 1, Origin.TENSOR)), Verdict.Kind.BAD_SIZE);
        invalid(edit(2, b -> buf("fx", "g", 0, 50, 52, 1, 2, 3, Origin.FIXED)), Verdict.Kind.BAD_SIZE);
        invalid(edit(1, b -> buf("a", "g", 100, 40, 40, 4, 1, 2, Origin.TENSOR)), Verdict.Kind.DUPLICATE_NAME);
        invalid(edit(1, b -> buf("b", "rom", 100, 40, 40, 4, 1, 2, Origin.TENSOR)), Verdict.Kind.UNKNOWN_SPACE);
    }

    @Test
    void formatAndCapacity() {
        // f: maxAddress 999, exclusive end: [960, 1000) passes 999
        invalid(edit(1, b -> buf("b", "g", 960, 40, 40, 4, 1, 2, Origin.TENSOR)), Verdict.Kind.NOT_ENCODABLE);
        // l: capacity 256 - runtimeReserve 16 = 240 usable
        invalid(edit(3, b -> buf("c", "l", 8, 240, 240, 8, 0, 0, Origin.TENSOR)), Verdict.Kind.OVER_CAPACITY);
    }

    @Test
    void metricsAreRecomputed() {
        Plan p = sound();
        Map<String, SpaceMetrics> m = new LinkedHashMap<>(p.spaces());
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 139, 1, 0, 0));
        invalid(new Plan(p.target(), "w", SolverChoice.AUTO, m, p.buffers(), p.descriptors()), Verdict.Kind.METRIC_MISMATCH);
        // 140 bytes are live at step 1 first (a and b), not at step 2 (b and fx: 90)
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 140, 2, 0, 0));
        invalid(new Plan(p.target(), "w", SolverChoice.AUTO, m, p.buffers(), p.descriptors()), Verdict.Kind.METRIC_MISMATCH);
        m.put("g", new SpaceMetrics("logical", OptionalLong.of(1 << 20), 140, 140, 1, 0, 0));
        invalid(new Plan(p.target(), "w", SolverChoice.AUTO, m, p.buffers(), p.descriptors()), Verdict.Kind.SPACE_MISMATCH);
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 140, 1, 0, 0));
        m.put("l", new SpaceMetrics("local", OptionalLong.of(256), 240, 240, 0, 0, 0));
        invalid(new Plan(p.target(), "w", SolverChoice.AUTO, m, p.buffers(), p.descriptors()), Verdict.Kind.METRIC_MISMATCH);
    }

    /**
     * g with b moved to steps 2..3 (beside fx, below it in bytes): high-water 140, peak of live
     * bytes 100, so a bracket can be open; l stays proved at its lower bound.
     */
    private static Plan withOptimality(Optimality g) {
        Plan p = edit(1, b -> buf("b", "g", 100, 40, 40, 4, 2, 3, Origin.TENSOR));
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 100, 0, 0, 0, Optional.of(g)));
        m.put("l", new SpaceMetrics("local", OptionalLong.of(256), 240, 240, 0, 0, 16, Optional.of(new Optimality(
                SolverKind.GREEDY, 240, Optimality.Proof.LOWER_BOUND, Optional.empty(), false))));
        return new Plan(p.target(), "w", SolverChoice.AUTO, m, p.buffers(), p.descriptors());
    }

    private static Optimality optimality(long lowerBound, Optimality.Proof proof) {
        return new Optimality(SolverKind.EXACT, lowerBound, proof, proof == Optimality.Proof.OPEN
                ? Optional.of(Optimality.Open.WORK_BUDGET) : Optional.empty(), false);
    }

    @Test
    void whatIsProvedMustAddUp() {
        for (long lower : new long[]{100, 120, 139}) {
            assertThat(PlanValidator.validate(withOptimality(optimality(lower, Optimality.Proof.OPEN))).valid())
                    .as("open at %d", lower).isTrue();
        }
        assertThat(PlanValidator.validate(withOptimality(optimality(140, Optimality.Proof.SEARCH))).valid()).isTrue();
        assertThat(PlanValidator.validate(withOptimality(optimality(140, Optimality.Proof.LOWER_BOUND))).valid()).isTrue();
        // below the peak of live bytes, above the high-water mark
        invalid(withOptimality(optimality(99, Optimality.Proof.OPEN)), Verdict.Kind.METRIC_MISMATCH);
        invalid(withOptimality(optimality(141, Optimality.Proof.SEARCH)), Verdict.Kind.METRIC_MISMATCH);
        // a proof below the high-water mark, an open bracket that is closed
        invalid(withOptimality(optimality(139, Optimality.Proof.SEARCH)), Verdict.Kind.METRIC_MISMATCH);
        invalid(withOptimality(optimality(100, Optimality.Proof.LOWER_BOUND)), Verdict.Kind.METRIC_MISMATCH);
        invalid(withOptimality(optimality(140, Optimality.Proof.OPEN)), Verdict.Kind.METRIC_MISMATCH);
        Verdict v = PlanValidator.validate(withOptimality(optimality(139, Optimality.Proof.SEARCH)));
        assertThat(((Verdict.Invalid) v).violations()).hasSize(1).first().satisfies(x ->
                assertThat(x.detail()).contains("space g", "proof search", "lowerBound 139", "140",
                        "a proved optimum is the lower bound"));
        Verdict closed = PlanValidator.validate(withOptimality(optimality(140, Optimality.Proof.OPEN)));
        assertThat(((Verdict.Invalid) closed).violations()).hasSize(1).first().satisfies(x ->
                assertThat(x.detail()).contains("proof open", "an open bracket has its lower bound below"));
        // one check more per space that says what it proved
        Plan bare = edit(1, b -> buf("b", "g", 100, 40, 40, 4, 2, 3, Origin.TENSOR));
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), 140, 100, 0, 0, 0));
        m.put("l", new SpaceMetrics("local", OptionalLong.of(256), 240, 240, 0, 0, 16));
        Verdict without = PlanValidator.validate(new Plan(bare.target(), "w", SolverChoice.AUTO, m, bare.buffers(),
                bare.descriptors()));
        Verdict with = PlanValidator.validate(withOptimality(optimality(120, Optimality.Proof.OPEN)));
        assertThat(((Verdict.Valid) with).checks()).isEqualTo(((Verdict.Valid) without).checks() + 2);
    }

    // --- tiles and descriptors, on the plan the planner makes of examples/tiled.json ---

    /**
     * examples/tiled.json planned on npu-ref: embedding (1 MiB at offset 0 of global) in 13 tiles
     * of 80672 bytes (the last 80512) through sram, 2 tile buffers; a descriptor table of 13 × 32 =
     * 416 bytes (448 reserved).
     */
    private static Plan tiled() {
        Target t = Targets.npuRef();
        Space g = t.space("global", "test");
        Space s = t.space("sram", "test");
        List<BufferSpec> bs = List.of(
                new BufferSpec("act0", 64 * 1024, g, 1, new Lifetime(0, 1), Optional.empty()),
                new BufferSpec("embedding", 1 << 20, g, 1, new Lifetime(0, 3), Optional.of(TileSpec.through(s, 2))),
                new BufferSpec("act1", 64 * 1024, g, 1, new Lifetime(1, 2), Optional.empty()),
                new BufferSpec("acc", 96 * 1024, s, 32, new Lifetime(1, 2), Optional.empty()),
                new BufferSpec("act2", 32 * 1024, g, 1, new Lifetime(2, 3), Optional.empty()));
        return Planner.plan(t, new Workload("tiled", bs, List.of()), new Planner.Options(SolverChoice.AUTO, 5)).plan();
    }

    private static Plan with(Plan p, List<PlannedBuffer> bs, List<DescriptorEntry> ds) {
        return new Plan(p.target(), p.workload(), p.solver(), p.spaces(), bs, ds, p.assignment());
    }

    private static Plan descriptors(UnaryOperator<List<DescriptorEntry>> f) {
        Plan p = tiled();
        return with(p, p.buffers(), f.apply(new ArrayList<>(p.descriptors())));
    }

    private static Plan buffer(String name, UnaryOperator<PlannedBuffer> f) {
        Plan p = tiled();
        List<PlannedBuffer> bs = new ArrayList<>();
        for (PlannedBuffer b : p.buffers()) {
            bs.add(b.name().equals(name) ? f.apply(b) : b);
        }
        return with(p, bs, p.descriptors());
    }

    private static PlannedBuffer of(PlannedBuffer b, Optional<String> of) {
        return new PlannedBuffer(b.name(), b.space(), b.offset(), b.requested(), b.reserved(), b.alignment(), b.live(),
                b.origin(), of);
    }

    private static DescriptorEntry tile(DescriptorEntry d, String name, int tile, long address, long bytes) {
        return new DescriptorEntry(name, tile, d.of(), address, bytes, d.space(), d.addressFormat());
    }

    /** The violations, each as {@code KIND: detail} (also PlanValidatorDetailTest's). */
    static List<String> violations(Plan p) {
        Verdict v = PlanValidator.validate(p);
        return v instanceof Verdict.Invalid bad
                ? bad.violations().stream().map(x -> x.kind() + ": " + x.detail()).toList() : List.of();
    }

    @Test
    void thePlannersTiledPlanIsValid() {
        Plan p = tiled();
        assertThat(p.descriptors()).hasSize(13);
        assertThat(p.buffers()).filteredOn(b -> b.origin() == Origin.TILE).extracting(PlannedBuffer::requested)
                .containsExactly(80672L, 80672L);
        assertThat(p.buffer("descriptor-table").orElseThrow().requested()).isEqualTo(416);
        assertThat(violations(p)).isEmpty();
    }

    @Test
    void aDuplicatedDescriptorIsRefused() {
        assertThat(violations(descriptors(ds -> {
            ds.add(ds.get(5));
            return ds;
        }))).containsExactly(
                "DUPLICATE_NAME: two descriptors are named embedding.tile.5",
                "BAD_DESCRIPTOR: tensor embedding: 1048576 bytes in tiles of 80672 bytes are 13 tiles, one descriptor"
                        + " each (tiles 0..12), but the plan has 14",
                "BAD_DESCRIPTOR: descriptor embedding.tile.5 is tile 5 of embedding, which has a descriptor already",
                "BAD_DESCRIPTOR: descriptor table descriptor-table requests 416 bytes, but 14 descriptors of 32 bytes"
                        + " are 448");
        // the same tile under another name, in place of tile 6: the count is right, tile 6 is missing
        assertThat(violations(descriptors(ds -> {
            ds.set(6, tile(ds.get(5), "embedding.tile.6", 5, ds.get(5).address(), ds.get(5).transferBytes()));
            return ds;
        }))).containsExactly(
                "BAD_DESCRIPTOR: descriptor embedding.tile.6 is tile 5 of embedding, which has a descriptor already");
        // the audit's List.of(de, de)
        DescriptorEntry de = tiled().descriptors().get(0);
        assertThat(violations(descriptors(ds -> List.of(de, de)))).hasSize(4).first().asString()
                .startsWith("DUPLICATE_NAME");
    }

    @Test
    void aDroppedDescriptorIsRefused() {
        assertThat(violations(descriptors(ds -> ds.subList(0, 12)))).containsExactly(
                "BAD_DESCRIPTOR: tensor embedding: 1048576 bytes in tiles of 80672 bytes are 13 tiles, one descriptor"
                        + " each (tiles 0..12), but the plan has 12",
                "BAD_DESCRIPTOR: descriptor table descriptor-table requests 416 bytes, but 12 descriptors of 32 bytes"
                        + " are 384");
        // no descriptors at all (a plan file without its descriptors key, read as an empty list)
        assertThat(violations(descriptors(ds -> List.of()))).containsExactly(
                "BAD_DESCRIPTOR: tensor embedding: 1048576 bytes in tiles of 80672 bytes are 13 tiles, one descriptor"
                        + " each (tiles 0..12), but the plan has 0",
                "BAD_DESCRIPTOR: descriptor table descriptor-table, but the plan has no descriptors");
    }

    @Test
    void aTileBufferNamesATiledTensorAndNothingElseNamesOne() {
        assertThat(violations(buffer("embedding.tilebuf.0", b -> of(b, Optional.of("nope"))))).containsExactly(
                "BAD_DESCRIPTOR: tile buffer embedding.tilebuf.0 is of nope, which is no reservation of the plan");
        assertThat(violations(buffer("embedding.tilebuf.1", b -> of(b, Optional.of("descriptor-table"))))).containsExactly(
                "BAD_DESCRIPTOR: tile buffer embedding.tilebuf.1 is of descriptor-table, a descriptor-table reservation,"
                        + " not a tensor");
        assertThat(violations(buffer("embedding.tilebuf.1", b -> of(b, Optional.empty())))).containsExactly(
                "BAD_DESCRIPTOR: tile buffer embedding.tilebuf.1 names no tensor in of");
        assertThat(violations(buffer("act0", b -> of(b, Optional.of("embedding"))))).containsExactly(
                "BAD_DESCRIPTOR: act0 is a tensor reservation, yet it is of embedding: only a tile buffer names a tensor"
                        + " in of");
        // a tile buffer of another tensor makes it tiled: then its descriptors and steps are missing
        assertThat(violations(buffer("embedding.tilebuf.1", b -> of(b, Optional.of("act0"))))).containsExactly(
                "BAD_DESCRIPTOR: tile buffer embedding.tilebuf.1 is live over steps [0, 3], its tensor act0 over [0, 1]:"
                        + " tile buffers live over the tensor's steps",
                "BAD_DESCRIPTOR: tensor act0: 65536 bytes in tiles of 80672 bytes are 1 tiles, one descriptor each"
                        + " (tiles 0..0), but the plan has 0");
    }

    @Test
    void aDescriptorIsOfATiledTensor() {
        DescriptorEntry onAct0 = new DescriptorEntry("act0.tile.0", 0, "act0", 1048576, 65536, "global", "dma32");
        assertThat(violations(descriptors(ds -> {
            ds.add(onAct0);
            return ds;
        }))).containsExactly(
                "BAD_DESCRIPTOR: descriptor act0.tile.0 is of act0, a tensor without tile buffers",
                "BAD_DESCRIPTOR: descriptor table descriptor-table requests 416 bytes, but 14 descriptors of 32 bytes"
                        + " are 448");
        assertThat(violations(descriptors(ds -> {
            ds.add(new DescriptorEntry("ghost.tile.0", 0, "ghost", 0, 1, "global", "dma32"));
            return ds;
        }))).first().isEqualTo("BAD_DESCRIPTOR: descriptor ghost.tile.0 is of ghost, which is no reservation of the plan");
        // an untiled tensor's descriptor on a target that generates none, and no descriptor table
        Plan p = sound();
        assertThat(violations(withBuffers(p.buffers(), List.of(new DescriptorEntry("a.tile.0", 0, "a", 0, 99, "g",
                "narrow"))))).containsExactly(
                "BAD_DESCRIPTOR: descriptor a.tile.0 is of a, a tensor without tile buffers",
                "BAD_DESCRIPTOR: the plan has 1 descriptors, but target t has no generation.descriptor to generate them");
    }

    @Test
    void eachDescriptorIsItsTile() {
        // tile 12 starts at 12 × 80672 = 968064 and carries 1048576 - 968064 = 80512 bytes
        assertThat(violations(descriptors(ds -> {
            ds.set(12, tile(ds.get(12), "embedding.tile.12", 12, 968064 + 64, 80512));
            return ds;
        }))).containsExactly("BAD_DESCRIPTOR: descriptor embedding.tile.12 is [968128, +80512), but tile 12 of"
                + " embedding (offset 0, tile offset 968064) is [968064, +80512)");
        assertThat(violations(descriptors(ds -> {
            ds.set(12, tile(ds.get(12), "embedding.tile.12", 12, 968064, 80672));
            return ds;
        }))).containsExactly("BAD_DESCRIPTOR: descriptor embedding.tile.12 is [968064, +80672), but tile 12 of"
                + " embedding (offset 0, tile offset 968064) is [968064, +80512)");
        assertThat(violations(descriptors(ds -> {
            ds.set(12, tile(ds.get(12), "embedding.tile.13", 13, 1048576, 0));
            return ds;
        }))).containsExactly("BAD_DESCRIPTOR: descriptor embedding.tile.13 is tile 13 of embedding, which has tiles"
                + " 0..12");
        assertThat(violations(descriptors(ds -> {
            DescriptorEntry d = ds.get(3);
            ds.set(3, new DescriptorEntry(d.name(), d.tile(), d.of(), d.address(), d.transferBytes(), d.space(), "sram20"));
            return ds;
        }))).containsExactly("BAD_DESCRIPTOR: descriptor embedding.tile.3 is in format sram20, but target npu-ref gives"
                + " its descriptors format dma32");
    }

    @Test
    void aDescriptorTableOfTheWrongSizeIsRefused() {
        assertThat(violations(buffer("descriptor-table", b -> new PlannedBuffer(b.name(), b.space(), b.offset(), 448, 448,
                b.alignment(), b.live(), b.origin(), b.of())))).containsExactly("BAD_DESCRIPTOR: descriptor table"
                + " descriptor-table requests 448 bytes, but 13 descriptors of 32 bytes are 416");
    }
}
