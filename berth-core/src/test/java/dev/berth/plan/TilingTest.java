package dev.berth.plan;

import dev.berth.admit.Admission;
import dev.berth.alloc.SpaceAllocator;
import dev.berth.arith.Checked;
import dev.berth.assign.DerivedNames;
import dev.berth.solve.SolverChoice;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
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
import java.util.OptionalInt;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TilingTest {
    private static final Optional<Generation> GEN = Optional.of(new Generation(
            Optional.of(new Generation.Descriptor("global", 32, 32, Optional.empty())),
            Optional.of(new Generation.Instruction("global", 16, 16))));

    private static Target target(long localCapacity, long localAlign) {
        return Targets.two(new AddressFormat("g", (1L << 40) - 1, EndConvention.EXCLUSIVE), 64,
                new AddressFormat("l", (1L << 20) - 1, EndConvention.LAST_BYTE), localAlign, localCapacity, GEN);
    }

    private static PlanResult plan(Target t, Workload w) {
        return Planner.plan(t, w, new Planner.Options(SolverChoice.AUTO, 5));
    }

    private static Workload tiled(Target t, long size, int depth, OptionalInt count, List<BufferSpec> others) {
        List<BufferSpec> bs = new ArrayList<>(others);
        bs.add(new BufferSpec("big", size, t.space("global", "test"), 1, new Lifetime(1, 3),
                Optional.of(new TileSpec(t.space("local", "test"), depth, count))));
        return new Workload("tiled", bs, List.of());
    }

    @Test
    void aTensorLargerThanTheLocalSpaceIsTiled() {
        Target t = target(64 * 1024, 32);
        Workload w = tiled(t, 1 << 20, 2, OptionalInt.empty(),
                List.of(new BufferSpec("acc", 16 * 1024, t.space("local", "test"), 1, new Lifetime(2, 2), Optional.empty())));
        PlanResult r = plan(t, w);
        Plan p = r.plan();
        assertThat(PlanValidator.validate(p).valid()).isTrue();
        List<PlannedBuffer> tiles = p.buffers().stream().filter(b -> b.origin() == Origin.TILE).toList();
        assertThat(tiles).hasSize(2).allSatisfy(b -> {
            assertThat(b.space()).isEqualTo("local");
            assertThat(b.of()).contains("big");
            assertThat(b.live()).isEqualTo(new Lifetime(1, 3));
        });
        // 48 KiB free next to acc for two tile buffers: 42 tiles need ceil(1 MiB / 42) = 24967 -> 24992 bytes
        // each (too big), 43 tiles need 24386.4 -> 24416 bytes (fits in 24 KiB)
        assertThat(tiles.get(0).reserved()).isEqualTo(24416);
        assertThat(Tiling.tileBytes(t.spaces().get("local"), "big", 1 << 20, 42, 32)).isEqualTo(24992);
        assertThat(p.descriptors()).hasSize(43);
        long covered = p.descriptors().stream().mapToLong(DescriptorEntry::transferBytes).sum();
        assertThat(covered).isEqualTo(1 << 20);
        // the descriptor table holds one descriptor of 32 bytes per tile, above everything in global
        PlannedBuffer table = p.buffers().stream().filter(b -> b.origin() == Origin.DESCRIPTOR_TABLE).findFirst()
                .orElseThrow();
        assertThat(table.requested()).isEqualTo(43 * 32);
        assertThat(p.spaces().get("global").generationOverhead())
                .isEqualTo(table.reserved() + p.buffers().stream().filter(b -> b.origin() == Origin.INSTRUCTIONS)
                        .mapToLong(PlannedBuffer::reserved).sum());
    }

    /** Brute force: the chosen count fits, every smaller count fails, and the search left no trace. */
    @Test
    void theChosenCountIsTheLeastThatFitsAndFailedTriesLeaveNoTrace() {
        Random rnd = new Random(42);
        int cases = 0;
        for (int k = 0; k < 150; k++) {
            long align = new long[]{1, 3, 8, 10, 32}[rnd.nextInt(5)];
            long cap = 200 + rnd.nextInt(800);
            Target t = target(cap, align);
            long size = 100 + rnd.nextInt(5000);
            int depth = 1 + rnd.nextInt(3);
            List<BufferSpec> others = List.of(
                    new BufferSpec("x", rnd.nextInt((int) cap / 2), t.space("local", "test"), 1, new Lifetime(0, 2), Optional.empty()),
                    new BufferSpec("y", rnd.nextInt((int) cap / 3), t.space("local", "test"), 1, new Lifetime(2, 4), Optional.empty()));
            PlanResult auto;
            try {
                auto = plan(t, tiled(t, size, depth, OptionalInt.empty(), others));
            } catch (BerthException e) {
                assertThat(e.category()).isEqualTo(Category.CAPACITY_EXCEEDED);
                continue;
            }
            cases++;
            long tileBytes = auto.plan().buffers().stream().filter(b -> b.origin() == Origin.TILE).findFirst()
                    .orElseThrow().requested();
            int least = -1;
            for (int c = 1; c <= 6000 && least < 0; c++) {
                try {
                    PlanResult r = plan(t, tiled(t, size, depth, OptionalInt.of(c), others));
                    least = c;
                    assertThat(r.plan()).as("case %d: the search left a trace", k).isEqualTo(auto.plan());
                } catch (BerthException e) {
                    assertThat(e.category()).isEqualTo(Category.CAPACITY_EXCEEDED);
                }
            }
            assertThat(least).isPositive();
            assertThat(Tiling.tileBytes(t.spaces().get("local"), "big", size, least,
                    Checked.lcm(align, 1))).isEqualTo(tileBytes);
        }
        assertThat(cases).isGreaterThan(50);
        System.out.println("tile count brute force: " + cases + " cases agree");
    }

    @Test
    void descriptorAddressesPastA32BitFieldAreRejectedNamingTileAndDescriptor() {
        AddressFormat wide = new AddressFormat("addr40", (1L << 40) - 1, EndConvention.EXCLUSIVE);
        AddressFormat dma32 = new AddressFormat("dma32", 0xFFFF_FFFFL, EndConvention.EXCLUSIVE);
        Map<String, AddressFormat> fm = new LinkedHashMap<>();
        fm.put("addr40", wide);
        fm.put("dma32", dma32);
        Map<String, Space> sp = new LinkedHashMap<>();
        sp.put("global", new Space.Logical("global", wide, 64, 0));
        sp.put("local", new Space.Local("local", dma32, 32, 0, 256 * 1024));
        Target t = new Target("wide", fm, sp, Optional.of(new Generation(
                Optional.of(new Generation.Descriptor("global", 32, 32, Optional.of("dma32"))), Optional.empty())));
        long low = (4L << 30) - (1 << 20);
        FixedRegion below = new FixedRegion("earlier", t.space("global", "test"), 0, low, new Lifetime(0, 3));
        BufferSpec tensor = new BufferSpec("t", 4 << 20, t.space("global", "test"), 1, new Lifetime(0, 3),
                Optional.of(new TileSpec(t.space("local", "test"), 2, OptionalInt.empty())));
        assertThatThrownBy(() -> plan(t, new Workload("w", List.of(tensor), List.of(below))))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
                    assertThat(e.getMessage()).contains("descriptor t.tile.").contains("of t").contains("dma32");
                    assertThat(e.failure().facts().limit()).hasValue(0xFFFF_FFFFL);
                });
        BufferSpec untiled = new BufferSpec("t", 4 << 20, t.space("global", "test"), 1, new Lifetime(0, 3), Optional.empty());
        PlanResult r = plan(t, new Workload("w", List.of(untiled), List.of(below)));
        assertThat(r.plan().buffers().get(0).offset()).isEqualTo(low);
        assertThat(low + (4 << 20)).isGreaterThan(0xFFFF_FFFFL);
    }

    @Test
    void aDescriptorTablePushingPastTheFormatFailsAtGenerationNamingIt() {
        // global holds 1 MiB - 64; the buffers fit, the tiles fit, the descriptor table does not
        AddressFormat g20 = new AddressFormat("g20", (1L << 20) - 1, EndConvention.EXCLUSIVE);
        Optional<Generation> descriptorsOnly = Optional.of(new Generation(
                Optional.of(new Generation.Descriptor("global", 32, 32, Optional.empty())), Optional.empty()));
        Target t = Targets.two(g20, 64, new AddressFormat("l", (1L << 20) - 1, EndConvention.EXCLUSIVE), 32, 4096,
                descriptorsOnly);
        BufferSpec filler = new BufferSpec("filler", (1L << 20) - 64 - 8192, t.space("global", "test"), 1, new Lifetime(0, 1), Optional.empty());
        BufferSpec tensor = new BufferSpec("t", 8192, t.space("global", "test"), 1, new Lifetime(0, 1),
                Optional.of(new TileSpec(t.space("local", "test"), 2, OptionalInt.empty())));
        assertThatThrownBy(() -> plan(t, new Workload("w", List.of(filler, tensor), List.of())))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
                    assertThat(e.failure().facts().buffer()).contains(DerivedNames.DESCRIPTOR_TABLE);
                    assertThat(e.getMessage()).contains("descriptor-table").contains("g20");
                });
        // without the tile there is no descriptor table, and the plan fits
        PlanResult r = plan(t, new Workload("w", List.of(filler, new BufferSpec("t", 8192, t.space("global", "test"), 1,
                new Lifetime(0, 1), Optional.empty())), List.of()));
        assertThat(r.plan().spaces().get("global").highWater()).isLessThanOrEqualTo(1L << 20);
    }

    @Test
    void aFailedTryLeavesTheAllocatorExactlyAsBefore() {
        Target t = target(1000, 10);
        var local = t.spaces().get("local");
        var alloc = new SpaceAllocator(local);
        alloc.reserve("x", new Lifetime(0, 2), 300, 1, Origin.TENSOR);
        alloc.reserve("y", new Lifetime(1, 4), 250, 7, Origin.TENSOR);
        alloc.reserveAt("f", new Lifetime(3, 3), 900, 50, 1, Admission.Mode.EXACT, Origin.FIXED);
        BufferSpec big = new BufferSpec("big", 5000, t.space("global", "test"), 1, new Lifetime(1, 3),
                Optional.of(new TileSpec(t.space("local", "test"), 3, OptionalInt.empty())));
        int failures = 0;
        for (int c = 1; c <= 120; c++) {
            var before = alloc.state();
            var cp = alloc.checkpoint();
            try {
                Tiling.reserveTiles(alloc, big, big.tile().get(), c, 10);
                alloc.rollback(cp);
            } catch (BerthException e) {
                failures++;
                assertThat(e.category()).isIn(Category.CAPACITY_EXCEEDED, Category.ADDRESS_NOT_ENCODABLE);
            }
            assertThat(alloc.state()).as("count %d", c).isEqualTo(before);
            assertThat(alloc.checkInvariants()).isTrue();
        }
        assertThat(failures).isBetween(1, 119);
    }
}
