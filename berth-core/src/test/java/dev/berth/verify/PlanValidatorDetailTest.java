package dev.berth.verify;

import dev.berth.failure.BerthException;
import dev.berth.solve.SolverChoice;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static dev.berth.verify.PlanValidatorTest.violations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The validator at the edges of each rule: ranges that end exactly at a format's limit
 * (exclusive and last-byte), touching ranges, buffers listed out of step order, the count of
 * violations and checks, metrics and descriptors at their limits, and the verdict's text.
 */
class PlanValidatorDetailTest {
    private static final AddressFormat EX = new AddressFormat("ex", 99, EndConvention.EXCLUSIVE);
    private static final AddressFormat LB = new AddressFormat("lb", 99, EndConvention.LAST_BYTE);

    private static final AddressFormat TINY = new AddressFormat("tiny", 15, EndConvention.EXCLUSIVE);

    /** g, h: logical; w: external at base 50; l: local, alignment 2, capacity 40; descriptors of 4 bytes in g. */
    private static Target target() {
        return target(Optional.of(new Generation(Optional.of(new Generation.Descriptor("g", 4, 2, Optional.empty())),
                Optional.empty())));
    }

    private static Target target(Optional<Generation> generation) {
        Map<String, AddressFormat> f = new LinkedHashMap<>();
        f.put("ex", EX);
        f.put("lb", LB);
        f.put("tiny", TINY);
        Map<String, Space> s = new LinkedHashMap<>();
        s.put("g", new Space.Logical("g", EX, 1, 0));
        s.put("h", new Space.Logical("h", LB, 1, 0));
        s.put("w", new Space.External("w", EX, 1, 5, 50, OptionalLong.empty()));
        s.put("l", new Space.Local("l", EX, 2, 0, 40));
        return new Target("t", f, s, generation);
    }

    private static PlannedBuffer buf(String name, String space, long offset, long size, int first, int last) {
        return new PlannedBuffer(name, space, offset, size, size, 1, new Lifetime(first, last), Origin.TENSOR,
                Optional.empty());
    }

    /** A plan of these buffers whose metrics are computed here, naively, per step. */
    private static Plan plan(List<PlannedBuffer> buffers, List<DescriptorEntry> descriptors) {
        return plan(target(), buffers, descriptors);
    }

    private static Plan plan(Target t, List<PlannedBuffer> buffers, List<DescriptorEntry> descriptors) {
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        for (Space sp : t.spaces().values()) {
            String s = sp.name();
            long high = 0;
            long peak = 0;
            int peakStep = -1;
            long gen = 0;
            for (int step = 0; step <= 20; step++) {
                long live = 0;
                for (PlannedBuffer b : buffers) {
                    if (b.space().equals(s) && b.live().first() <= step && step <= b.live().last()) {
                        live += b.reserved();
                    }
                }
                if (live > peak) {
                    peak = live;
                    peakStep = step;
                }
            }
            for (PlannedBuffer b : buffers) {
                if (b.space().equals(s)) {
                    high = Math.max(high, b.offset() + b.reserved());
                    if (b.origin() == Origin.DESCRIPTOR_TABLE || b.origin() == Origin.INSTRUCTIONS) {
                        gen += b.reserved();
                    }
                }
            }
            m.put(s, new SpaceMetrics(sp.kind(), sp.capacity(), high, peak, peakStep, gen, sp.runtimeReserve()));
        }
        return new Plan(t, "wl", SolverChoice.AUTO, m, buffers, descriptors);
    }

    private static List<Verdict.Kind> kinds(Plan p) {
        Verdict v = PlanValidator.validate(p);
        return v instanceof Verdict.Invalid bad ? bad.violations().stream().map(Verdict.Violation::kind).toList() : List.of();
    }

    @Test
    void rangesEndingExactlyAtTheLimitAreEncodableUnderEachConvention() {
        // exclusive: [90, 99) ends at 99 = maxAddress; last-byte: [90, 100) has its last byte at 99
        assertThat(kinds(plan(List.of(buf("a", "g", 90, 9, 0, 0), buf("z", "g", 99, 0, 1, 1),
                buf("b", "h", 90, 10, 0, 0), buf("y", "h", 99, 1, 1, 1), buf("e", "h", 100, 0, 2, 2)), List.of())))
                .containsExactly(Verdict.Kind.NOT_ENCODABLE);
        assertThat(kinds(plan(List.of(buf("a", "g", 90, 10, 0, 0)), List.of()))).containsExactly(Verdict.Kind.NOT_ENCODABLE);
        assertThat(kinds(plan(List.of(buf("b", "h", 90, 11, 0, 0)), List.of()))).containsExactly(Verdict.Kind.NOT_ENCODABLE);
        assertThat(kinds(plan(List.of(buf("b", "h", 91, 9, 0, 0), buf("z", "h", 99, 0, 1, 1)), List.of()))).isEmpty();
        // an external space's base counts: base 50 + offset 49 + 1 byte ends at 100 > 99
        assertThat(kinds(plan(List.of(buf("x", "w", 40, 9, 0, 0)), List.of()))).isEmpty();
        assertThat(kinds(plan(List.of(buf("x", "w", 40, 10, 0, 0)), List.of()))).containsExactly(Verdict.Kind.NOT_ENCODABLE);
    }

    @Test
    void zeroSizedAndExactBuffersAreSound() {
        Plan p = plan(List.of(buf("zero", "g", 0, 0, 0, 0), buf("a", "g", 0, 10, 0, 0)), List.of());
        assertThat(PlanValidator.validate(p).valid()).isTrue();
    }

    @Test
    void buffersListedOutOfStepOrderAreSweptInStepOrder() {
        // the later buffer first, at the same address: no overlap in time
        assertThat(kinds(plan(List.of(buf("late", "g", 0, 10, 5, 6), buf("early", "g", 0, 10, 0, 1)), List.of()))).isEmpty();
        // a long-lived buffer, a short one that ends at step 0, then one at step 1 where the short one was
        assertThat(kinds(plan(List.of(buf("long", "g", 0, 10, 0, 9), buf("short", "g", 10, 10, 0, 0),
                buf("next", "g", 10, 10, 1, 1)), List.of()))).isEmpty();
    }

    @Test
    void eachOverlapIsReportedOnceAndTouchingRangesAreNoOverlap() {
        List<PlannedBuffer> bs = List.of(buf("a", "g", 0, 10, 0, 5), buf("b", "g", 5, 10, 0, 5),
                buf("c", "g", 12, 2, 0, 5), buf("d", "g", 15, 5, 0, 5));
        assertThat(kinds(plan(bs, List.of()))).containsExactly(Verdict.Kind.OVERLAP);
        assertThat(kinds(plan(List.of(buf("a", "g", 0, 10, 0, 5), buf("b", "g", 10, 10, 0, 5)), List.of()))).isEmpty();
        // the held neighbour above, touching the new one's end
        assertThat(kinds(plan(List.of(buf("above", "g", 10, 10, 0, 5), buf("below", "g", 0, 10, 0, 5)), List.of())))
                .isEmpty();
    }

    @Test
    void checksAreCountedOnePerBufferSweepSpaceAndDescriptor() {
        Plan p = plan(List.of(buf("a", "g", 0, 10, 0, 1), buf("b", "g", 10, 10, 0, 1), buf("z", "h", 0, 0, 0, 0)),
                List.of());
        // 3 buffers + 2 non-empty buffers swept + 4 spaces' metrics
        assertThat(PlanValidator.validate(p)).isEqualTo(new Verdict.Valid(9));
        // 8 buffers + 6 non-empty swept + 4 spaces + 5 descriptors + 3 tiled tensors + 1 descriptor table
        assertThat(PlanValidator.validate(plan(tiledBuffers(), tiledDescriptors()))).isEqualTo(new Verdict.Valid(27));
    }

    @Test
    void metricsAreComparedOneByOne() {
        Plan sound = plan(List.of(buf("a", "g", 0, 10, 0, 1), buf("b", "g", 10, 5, 1, 2)), List.of());
        assertThat(kinds(sound)).isEmpty();
        assertThat(sound.spaces().get("g").peakStep()).isEqualTo(1);
        assertThat(sound.spaces().get("h").peakStep()).isEqualTo(-1);
        for (int which = 0; which < 6; which++) {
            Map<String, SpaceMetrics> m = new LinkedHashMap<>(sound.spaces());
            SpaceMetrics g = m.get("g");
            // the peak step one later (where fewer bytes are live) or -1 (as if none were)
            int step = which == 4 ? g.peakStep() + 1 : which == 5 ? -1 : g.peakStep();
            m.put("g", new SpaceMetrics("logical", OptionalLong.empty(), g.highWater() + (which == 0 ? 1 : 0),
                    g.peakLive() + (which == 1 ? 1 : 0), step, g.generationOverhead() + (which == 2 ? 1 : 0),
                    g.runtimeReserve() + (which == 3 ? 1 : 0)));
            Plan bad = new Plan(sound.target(), "wl", SolverChoice.AUTO, m, sound.buffers(), List.of());
            assertThat(kinds(bad)).as("metric %d", which).containsExactly(Verdict.Kind.METRIC_MISMATCH);
        }
        Map<String, SpaceMetrics> kind = new LinkedHashMap<>(sound.spaces());
        kind.put("g", new SpaceMetrics("local", OptionalLong.empty(), 15, 15, 1, 0, 0));
        assertThat(kinds(new Plan(sound.target(), "wl", SolverChoice.AUTO, kind, sound.buffers(), List.of())))
                .containsExactly(Verdict.Kind.SPACE_MISMATCH);
        // a capacity given to the logical space: the message names both sides in bytes, or none
        Map<String, SpaceMetrics> capacity = new LinkedHashMap<>(sound.spaces());
        SpaceMetrics cg = capacity.get("g");
        capacity.put("g", new SpaceMetrics("logical", OptionalLong.of(100), cg.highWater(), cg.peakLive(), cg.peakStep(),
                cg.generationOverhead(), cg.runtimeReserve()));
        Verdict wrongCapacity = PlanValidator.validate(new Plan(sound.target(), "wl", SolverChoice.AUTO, capacity,
                sound.buffers(), List.of()));
        assertThat(wrongCapacity).isInstanceOfSatisfying(Verdict.Invalid.class, bad -> assertThat(bad.violations())
                .extracting(Verdict.Violation::detail).containsExactly("space g: capacity 100 in the plan, none in the target"));
        Map<String, SpaceMetrics> missing = new LinkedHashMap<>(sound.spaces());
        missing.remove("h");
        assertThat(kinds(new Plan(sound.target(), "wl", SolverChoice.AUTO, missing, sound.buffers(), List.of())))
                .containsExactly(Verdict.Kind.SPACE_MISMATCH);
        Map<String, SpaceMetrics> extra = new LinkedHashMap<>(sound.spaces());
        extra.put("ghost", sound.spaces().get("h"));
        assertThat(kinds(new Plan(sound.target(), "wl", SolverChoice.AUTO, extra, sound.buffers(), List.of())))
                .containsExactly(Verdict.Kind.UNKNOWN_SPACE);
    }

    @Test
    void generationOverheadCountsDescriptorTablesAndInstructions() {
        List<PlannedBuffer> bs = new ArrayList<>(tiledBuffers());
        bs.add(res("instructions", "g", 40, 4, 1, 0, 2, Origin.INSTRUCTIONS, null));
        Plan p = plan(bs, tiledDescriptors());
        assertThat(p.spaces().get("g").generationOverhead()).isEqualTo(24);
        assertThat(kinds(p)).isEmpty();
    }

    // --- tiles and descriptors ---

    private static PlannedBuffer res(String name, String space, long offset, long size, long align, int first, int last,
                                     Origin origin, String of) {
        return new PlannedBuffer(name, space, offset, size, size, align, new Lifetime(first, last), origin,
                Optional.ofNullable(of));
    }

    /**
     * a: 10 bytes at 10 in g, tiles of 4 through l (two tile buffers): tiles [10, +4), [14, +4),
     * [18, +2); x: 10 bytes at offset 0 of w (base 50), one tile of 10: address 50; z: 0 bytes in
     * h, one tile buffer of 0 bytes: one tile of 0 bytes; the table of 5 × 4 bytes in g.
     */
    private static List<PlannedBuffer> tiledBuffers() {
        return List.of(res("a", "g", 10, 10, 1, 0, 1, Origin.TENSOR, null),
                res("x", "w", 0, 10, 1, 0, 1, Origin.TENSOR, null),
                res("z", "h", 0, 0, 1, 2, 2, Origin.TENSOR, null),
                res("a.tilebuf.0", "l", 0, 4, 2, 0, 1, Origin.TILE, "a"),
                res("a.tilebuf.1", "l", 4, 4, 2, 0, 1, Origin.TILE, "a"),
                res("x.tilebuf.0", "l", 8, 10, 2, 0, 1, Origin.TILE, "x"),
                res("z.tilebuf.0", "l", 18, 0, 2, 2, 2, Origin.TILE, "z"),
                res("descriptor-table", "g", 20, 20, 2, 0, 2, Origin.DESCRIPTOR_TABLE, null));
    }

    private static List<DescriptorEntry> tiledDescriptors() {
        return List.of(new DescriptorEntry("a.tile.0", 0, "a", 10, 4, "g", "ex"),
                new DescriptorEntry("a.tile.1", 1, "a", 14, 4, "g", "ex"),
                new DescriptorEntry("a.tile.2", 2, "a", 18, 2, "g", "ex"),
                new DescriptorEntry("x.tile.0", 0, "x", 50, 10, "w", "ex"),
                new DescriptorEntry("z.tile.0", 0, "z", 0, 0, "h", "lb"));
    }

    /** The tiled plan's buffers with buffer {@code name} replaced (or removed, for null). */
    private static List<PlannedBuffer> replace(String name, PlannedBuffer by) {
        List<PlannedBuffer> bs = new ArrayList<>();
        for (PlannedBuffer b : tiledBuffers()) {
            if (!b.name().equals(name)) {
                bs.add(b);
            } else if (by != null) {
                bs.add(by);
            }
        }
        return bs;
    }

    /** The tiled plan's descriptors with descriptor {@code i} replaced. */
    private static List<DescriptorEntry> replace(int i, DescriptorEntry by) {
        List<DescriptorEntry> ds = new ArrayList<>(tiledDescriptors());
        ds.set(i, by);
        return ds;
    }

    @Test
    void eachDescriptorIsItsTileToTheByte() {
        assertThat(violations(plan(tiledBuffers(), replace(2, new DescriptorEntry("a.tile.2", 2, "a", 18, 4, "g", "ex")))))
                .containsExactly("BAD_DESCRIPTOR: descriptor a.tile.2 is [18, +4), but tile 2 of a (offset 10, tile"
                        + " offset 8) is [18, +2)");
        assertThat(violations(plan(tiledBuffers(), replace(1, new DescriptorEntry("a.tile.1", 1, "a", 15, 4, "g", "ex")))))
                .containsExactly("BAD_DESCRIPTOR: descriptor a.tile.1 is [15, +4), but tile 1 of a (offset 10, tile"
                        + " offset 4) is [14, +4)");
        assertThat(kinds(plan(tiledBuffers(), replace(1, new DescriptorEntry("a.tile.1", 1, "a", 13, 4, "g", "ex")))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
        // an external space's descriptor is absolute: base 50 + offset 0
        assertThat(violations(plan(tiledBuffers(), replace(3, new DescriptorEntry("x.tile.0", 0, "x", 0, 10, "w", "ex")))))
                .containsExactly("BAD_DESCRIPTOR: descriptor x.tile.0 is [0, +10), but tile 0 of x (offset 0, base 50,"
                        + " tile offset 0) is [50, +10)");
        assertThat(kinds(plan(tiledBuffers(), replace(3, new DescriptorEntry("x.tile.0", 0, "x", 49, 10, "w", "ex")))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
        assertThat(kinds(plan(tiledBuffers(), replace(3, new DescriptorEntry("x.tile.0", 0, "x", 51, 10, "w", "ex")))))
                .containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
        // an address so far below the base that address - base passes -2^63
        assertThat(kinds(plan(tiledBuffers(), replace(3, new DescriptorEntry("x.tile.0", 0, "x", Long.MIN_VALUE + 49,
                10, "w", "ex"))))).contains(Verdict.Kind.BAD_DESCRIPTOR);
        assertThat(violations(plan(tiledBuffers(), replace(0, new DescriptorEntry("a.tile.0", -1, "a", 10, 4, "g", "ex")))))
                .containsExactly("BAD_DESCRIPTOR: descriptor a.tile.0 is tile -1 of a, which has tiles 0..2");
        assertThat(violations(plan(tiledBuffers(), replace(2, new DescriptorEntry("a.tile.3", 3, "a", 22, 0, "g", "ex")))))
                .containsExactly("BAD_DESCRIPTOR: descriptor a.tile.3 is tile 3 of a, which has tiles 0..2");
        // names are unique across tensors
        assertThat(violations(plan(tiledBuffers(), replace(4, new DescriptorEntry("a.tile.0", 0, "z", 0, 0, "h", "lb")))))
                .containsExactly("DUPLICATE_NAME: two descriptors are named a.tile.0");
    }

    @Test
    void aDescriptorIsInItsTensorsSpaceAndTheTargetsFormat() {
        // without an addressFormat in the target, a descriptor has its tensor space's format
        assertThat(violations(plan(tiledBuffers(), replace(0, new DescriptorEntry("a.tile.0", 0, "a", 10, 4, "g", "lb")))))
                .containsExactly("BAD_DESCRIPTOR: descriptor a.tile.0 is in format lb, but target t gives its"
                        + " descriptors format ex");
        assertThat(violations(plan(tiledBuffers(), replace(4, new DescriptorEntry("z.tile.0", 0, "z", 0, 0, "h", "ex")))))
                .containsExactly("BAD_DESCRIPTOR: descriptor z.tile.0 is in format ex, but target t gives its"
                        + " descriptors format lb");
        for (DescriptorEntry d : List.of(new DescriptorEntry("a.tile.0", 0, "a", 10, 4, "g", "nope"),
                new DescriptorEntry("a.tile.0", 0, "a", 10, 4, "h", "ex"),
                new DescriptorEntry("a.tile.0", 0, "a", 10, 4, "rom", "ex"),
                new DescriptorEntry("a.tile.0", 0, "a", 10, -1, "g", "ex"))) {
            assertThat(violations(plan(tiledBuffers(), replace(0, d)))).as(d.toString()).containsExactly("BAD_DESCRIPTOR:"
                    + " descriptor a.tile.0 names tensor a, space " + d.space() + ", format " + d.addressFormat()
                    + ": not all of them exist and agree");
        }
        // a tensor in a space the target does not have, its descriptors there too
        List<PlannedBuffer> rom = replace("a", res("a", "rom", 10, 10, 1, 0, 1, Origin.TENSOR, null));
        List<DescriptorEntry> ds = new ArrayList<>(tiledDescriptors());
        for (int i = 0; i < 3; i++) {
            DescriptorEntry d = ds.get(i);
            ds.set(i, new DescriptorEntry(d.name(), d.tile(), d.of(), d.address(), d.transferBytes(), "rom", "ex"));
        }
        assertThat(kinds(plan(rom, ds))).containsExactly(Verdict.Kind.UNKNOWN_SPACE, Verdict.Kind.BAD_DESCRIPTOR,
                Verdict.Kind.BAD_DESCRIPTOR, Verdict.Kind.BAD_DESCRIPTOR);
        // a descriptor format narrower than the space's: [14, +4) ends past 15
        Target tiny = target(Optional.of(new Generation(Optional.of(new Generation.Descriptor("g", 4, 2,
                Optional.of("tiny"))), Optional.empty())));
        List<DescriptorEntry> inTiny = tiledDescriptors().stream().map(d -> new DescriptorEntry(d.name(), d.tile(),
                d.of(), d.address(), d.transferBytes(), d.space(), "tiny")).toList();
        List<String> narrow = violations(plan(tiny, tiledBuffers(), inTiny));
        assertThat(narrow).hasSize(3).allSatisfy(x -> assertThat(x).startsWith("NOT_ENCODABLE: descriptor "));
        assertThat(narrow.get(0)).isEqualTo("NOT_ENCODABLE: descriptor a.tile.1: [14, +4) is not encodable in "
                + TINY.describe() + " and " + EX.describe());
    }

    @Test
    void aTensorOfZeroBytesHasOneTileOfZeroBytes() {
        assertThat(kinds(plan(replace("z.tilebuf.0", res("z.tilebuf.0", "l", 18, 4, 2, 2, 2, Origin.TILE, "z")),
                tiledDescriptors()))).isEmpty();
        List<DescriptorEntry> none = tiledDescriptors().subList(0, 4);
        assertThat(violations(plan(replace("descriptor-table", res("descriptor-table", "g", 20, 16, 2, 0, 2,
                Origin.DESCRIPTOR_TABLE, null)), none))).containsExactly("BAD_DESCRIPTOR: tensor z: 0 bytes in tiles"
                + " of 0 bytes are 1 tiles, one descriptor each (tiles 0..0), but the plan has 0");
        // tile buffers of 0 bytes carry nothing of a tensor with bytes
        List<PlannedBuffer> empty = new ArrayList<>(tiledBuffers());
        empty.replaceAll(b -> b.name().startsWith("a.tilebuf.") ? res(b.name(), "l", b.offset(), 0, 2, 0, 1,
                Origin.TILE, "a") : b);
        assertThat(violations(plan(empty, tiledDescriptors()))).containsExactly("BAD_DESCRIPTOR: tensor a of 10 bytes has"
                + " tile buffers of 0 bytes: no tile carries its bytes");
    }

    @Test
    void negativeSizesAreBadSizesAndNothingMore() {
        List<PlannedBuffer> bs = new ArrayList<>(tiledBuffers());
        bs.replaceAll(b -> b.name().startsWith("a.tilebuf") ? new PlannedBuffer(b.name(), b.space(), b.offset(), -4, 4,
                b.alignment(), b.live(), b.origin(), b.of()) : b);
        assertThat(kinds(plan(bs, tiledDescriptors()))).containsExactly(Verdict.Kind.BAD_SIZE, Verdict.Kind.BAD_SIZE);
        assertThat(kinds(plan(replace("a", new PlannedBuffer("a", "g", 10, -10, 10, 1, new Lifetime(0, 1), Origin.TENSOR,
                Optional.empty())), tiledDescriptors()))).containsExactly(Verdict.Kind.BAD_SIZE);
    }

    @Test
    void aTensorsTileBuffersAreOfOneSizeInOneLocalSpaceOverItsSteps() {
        assertThat(violations(plan(replace("a.tilebuf.1", res("a.tilebuf.1", "l", 4, 2, 2, 0, 1, Origin.TILE, "a")),
                tiledDescriptors()))).containsExactly("BAD_DESCRIPTOR: tile buffers of a: a.tilebuf.0 holds 4 bytes in"
                + " space l, a.tilebuf.1 2 in l: a tensor's tile buffers are of one tile size in one space");
        assertThat(kinds(plan(replace("a.tilebuf.1", res("a.tilebuf.1", "h", 4, 4, 2, 0, 1, Origin.TILE, "a")),
                tiledDescriptors()))).containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
        assertThat(violations(plan(replace("a.tilebuf.1", res("a.tilebuf.1", "l", 4, 4, 2, 0, 0, Origin.TILE, "a")),
                tiledDescriptors()))).containsExactly("BAD_DESCRIPTOR: tile buffer a.tilebuf.1 is live over steps [0, 0],"
                + " its tensor a over [0, 1]: tile buffers live over the tensor's steps");
        assertThat(violations(plan(replace("x.tilebuf.0", res("x.tilebuf.0", "h", 10, 10, 2, 0, 1, Origin.TILE, "x")),
                tiledDescriptors()))).containsExactly("BAD_DESCRIPTOR: the tile buffers of x are in space h, which is"
                + " logical: tiles go through a local space");
        assertThat(kinds(plan(replace("x.tilebuf.0", res("x.tilebuf.0", "rom", 10, 10, 2, 0, 1, Origin.TILE, "x")),
                tiledDescriptors()))).containsExactly(Verdict.Kind.UNKNOWN_SPACE);
    }

    @Test
    void theDescriptorTableHoldsEveryDescriptorInTheTargetsSpace() {
        PlannedBuffer t = tiledBuffers().get(7);
        assertThat(violations(plan(replace(t.name(), null), tiledDescriptors()))).containsExactly("BAD_DESCRIPTOR: the"
                + " plan has 5 descriptors and 0 descriptor tables: they go into one");
        List<PlannedBuffer> two = new ArrayList<>(tiledBuffers());
        two.add(res("descriptor-table.2", "g", 40, 20, 2, 0, 2, Origin.DESCRIPTOR_TABLE, null));
        assertThat(violations(plan(two, tiledDescriptors()))).containsExactly("BAD_DESCRIPTOR: the plan has 5 descriptors"
                + " and 2 descriptor tables: they go into one");
        assertThat(violations(plan(replace(t.name(), res(t.name(), "h", 10, 20, 2, 0, 2, Origin.DESCRIPTOR_TABLE, null)),
                tiledDescriptors()))).containsExactly("BAD_DESCRIPTOR: descriptor table descriptor-table is in space h,"
                + " but target t puts it in g");
        // 21 / 4 = 5 descriptors, and 1 byte more
        assertThat(violations(plan(replace(t.name(), new PlannedBuffer(t.name(), "g", 20, 21, 22, 2, t.live(), t.origin(),
                t.of())), tiledDescriptors()))).containsExactly("BAD_DESCRIPTOR: descriptor table descriptor-table"
                + " requests 21 bytes, but 5 descriptors of 4 bytes are 20");
        assertThat(kinds(plan(replace(t.name(), res(t.name(), "g", 20, 16, 2, 0, 2, Origin.DESCRIPTOR_TABLE, null)),
                tiledDescriptors()))).containsExactly(Verdict.Kind.BAD_DESCRIPTOR);
        assertThat(violations(plan(replace(t.name(), res(t.name(), "g", 20, 20, 1, 0, 2, Origin.DESCRIPTOR_TABLE, null)),
                tiledDescriptors()))).containsExactly("BAD_DESCRIPTOR: descriptor table descriptor-table has alignment 1,"
                + " not a multiple of the descriptor alignment 2");
        // descriptors of 0 bytes: a table of 0 bytes
        Target free = target(Optional.of(new Generation(Optional.of(new Generation.Descriptor("g", 0, 2,
                Optional.empty())), Optional.empty())));
        assertThat(kinds(plan(free, replace(t.name(), res(t.name(), "g", 20, 0, 2, 0, 2, Origin.DESCRIPTOR_TABLE, null)),
                tiledDescriptors()))).isEmpty();
        assertThat(violations(plan(free, tiledBuffers(), tiledDescriptors()))).containsExactly("BAD_DESCRIPTOR: descriptor"
                + " table descriptor-table requests 20 bytes, but 5 descriptors of 0 bytes are 0");
        // a table without descriptors, and descriptors on a target that generates none
        assertThat(violations(plan(List.of(t), List.of()))).containsExactly("BAD_DESCRIPTOR: descriptor table"
                + " descriptor-table, but the plan has no descriptors");
        assertThat(violations(plan(target(Optional.empty()), tiledBuffers(), tiledDescriptors()))).containsExactly(
                "BAD_DESCRIPTOR: the plan has 5 descriptors, but target t has no generation.descriptor to generate them");
    }

    @Test
    void theVerdictSaysHowManyViolationsAndListsTwentyAtMost() {
        Verdict.Invalid one = new Verdict.Invalid(List.of(new Verdict.Violation(Verdict.Kind.OVERLAP, "x")));
        assertThat(one.valid()).isFalse();
        assertThat(one.toString()).isEqualTo("plan failed validation (1 violation):\n  - OVERLAP: x");
        List<Verdict.Violation> many = new ArrayList<>();
        for (int i = 0; i < 22; i++) {
            many.add(new Verdict.Violation(Verdict.Kind.BAD_SIZE, "v" + i));
        }
        String text = new Verdict.Invalid(many).toString();
        assertThat(text).startsWith("plan failed validation (22 violations):\n  - BAD_SIZE: v0\n")
                .contains("  - BAD_SIZE: v19\n").doesNotContain("v20").endsWith("\n  ... 2 more");
        List<Verdict.Violation> twenty = many.subList(0, 20);
        assertThat(new Verdict.Invalid(twenty).toString()).endsWith("  - BAD_SIZE: v19").doesNotContain("more");
        assertThat(new Verdict.Valid(3).valid()).isTrue();
    }

    /** A verdict's count of checks is 0..2^63-1: zero is a valid count (PIT's boundary mutant of the check). */
    @Test
    void aValidVerdictCountsFromZero() {
        assertThat(new Verdict.Valid(0).checks()).isZero();
        assertThat(new Verdict.Valid(Long.MAX_VALUE).valid()).isTrue();
        assertThatThrownBy(() -> new Verdict.Valid(-1)).isInstanceOf(BerthException.class)
                .hasMessageContaining("checks");
    }
}
