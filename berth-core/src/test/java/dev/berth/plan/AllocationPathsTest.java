package dev.berth.plan;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Generation;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.TileSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every allocation path (buffers, fixed regions, tiles, descriptors, descriptor tables,
 * instruction streams) reaches the one admission check: shown in the sources, and shown by
 * each path rejecting a request its format cannot encode.
 */
class AllocationPathsTest {
    private static final Path MAIN = Path.of("src/main/java/dev/berth");

    /** Path -> the source file that allocates on it, and the admission call it must make. */
    private static final Map<String, String[]> PATHS = Map.of(
            "buffers and fixed regions", new String[]{"plan/Planner.java", "Admission.admit("},
            "tile buffers", new String[]{"alloc/SpaceAllocator.java", "Admission.admit("},
            "descriptors", new String[]{"plan/Tiling.java", "Admission.encodableAt("},
            "descriptor table and instructions", new String[]{"plan/GenerationAllocator.java", "Admission.admit("});

    @Test
    void everyPathCallsTheAdmissionCheckAndOnlyItMakesPlacements() throws IOException {
        for (Map.Entry<String, String[]> e : PATHS.entrySet()) {
            String src = Files.readString(MAIN.resolve(e.getValue()[0]));
            assertThat(src).as(e.getKey()).contains(e.getValue()[1]);
        }
        try (Stream<Path> files = Files.walk(MAIN)) {
            List<Path> makers = files.filter(p -> p.toString().endsWith(".java")).filter(p -> {
                try {
                    return Files.readString(p).contains("new Placement(");
                } catch (IOException ex) {
                    throw new java.io.UncheckedIOException(ex);
                }
            }).toList();
            assertThat(makers).extracting(p -> p.getFileName().toString()).containsExactly("Admission.java");
        }
        String placement = Files.readString(MAIN.resolve("admit/Placement.java"));
        assertThat(placement).containsPattern("\\n    Placement\\(").doesNotContain("public Placement(");
    }

    private static final AddressFormat F100 = new AddressFormat("f100", 99, EndConvention.EXCLUSIVE);

    private static Target target(Optional<Generation> gen) {
        return Targets.two(F100, 1, new AddressFormat("l", 63, EndConvention.EXCLUSIVE), 1, 1 << 20, gen);
    }

    private static void rejects(Target t, Workload w, String named) {
        assertThatThrownBy(() -> Planner.plan(t, w, Planner.Options.defaults()))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).as(e.getMessage()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
                    assertThat(e.getMessage()).contains(named);
                });
    }

    @Test
    void aBufferPastTheFormat() {
        rejects(target(Optional.empty()), new Workload("w",
                List.of(new BufferSpec("wide", 101, "global", 1, new Lifetime(0, 0))), List.of()), "buffer wide");
    }

    @Test
    void aFixedRegionPastTheFormat() {
        rejects(target(Optional.empty()), new Workload("w", List.of(),
                List.of(new FixedRegion("abi", "global", 90, 20, new Lifetime(0, 0)))), "buffer abi");
    }

    @Test
    void aTileBufferPastTheLocalFormat() {
        // local: capacity 1 MiB but a 64-byte format; a tile count of 1 needs a 200-byte tile buffer
        Optional<Generation> gen = Optional.of(new Generation(
                Optional.of(new Generation.Descriptor("global", 1, 1, Optional.empty())), Optional.empty()));
        rejects(target(gen), new Workload("w", List.of(new BufferSpec("t", 80, "global", 1, new Lifetime(0, 0),
                Optional.of(new TileSpec("local", 1, OptionalInt.of(1))))), List.of()), "t.tilebuf.0");
        Target wideGlobal = Targets.two(new AddressFormat("g", 1 << 20, EndConvention.EXCLUSIVE), 1,
                new AddressFormat("l", 63, EndConvention.EXCLUSIVE), 1, 1 << 20, gen);
        rejects(wideGlobal, new Workload("w", List.of(new BufferSpec("t", 200, "global", 1, new Lifetime(0, 0),
                Optional.of(new TileSpec("local", 1, OptionalInt.of(1))))), List.of()), "t.tilebuf.0");
    }

    @Test
    void aDescriptorPastItsAddressFormat() {
        Map<String, AddressFormat> fm = new java.util.LinkedHashMap<>();
        fm.put("wide", new AddressFormat("wide", 1 << 20, EndConvention.EXCLUSIVE));
        fm.put("narrow", new AddressFormat("narrow", 99, EndConvention.EXCLUSIVE));
        Map<String, dev.berth.target.Space> sp = new java.util.LinkedHashMap<>();
        sp.put("global", new dev.berth.target.Space.Logical("global", fm.get("wide"), 1, 0));
        sp.put("local", new dev.berth.target.Space.Local("local", fm.get("wide"), 1, 0, 64));
        Target t = Target.of("t", fm, sp, Optional.of(new Generation(
                Optional.of(new Generation.Descriptor("global", 1, 1, Optional.of("narrow"))), Optional.empty())));
        rejects(t, new Workload("w", List.of(new BufferSpec("t", 300, "global", 1, new Lifetime(0, 0),
                Optional.of(new TileSpec("local", 1, OptionalInt.empty())))), List.of()), "descriptor t.tile.1");
    }

    @Test
    void aDescriptorTablePastTheFormat() {
        Optional<Generation> gen = Optional.of(new Generation(
                Optional.of(new Generation.Descriptor("global", 30, 1, Optional.empty())), Optional.empty()));
        rejects(target(gen), new Workload("w", List.of(new BufferSpec("t", 60, "global", 1, new Lifetime(0, 0),
                Optional.of(new TileSpec("local", 1, OptionalInt.of(2))))), List.of()), "descriptor-table");
    }

    @Test
    void anInstructionStreamPastTheFormat() {
        Optional<Generation> gen = Optional.of(new Generation(Optional.empty(),
                Optional.of(new Generation.Instruction("global", 10, 1))));
        rejects(target(gen), new Workload("w", List.of(new BufferSpec("a", 50, "global", 1, new Lifetime(0, 5))),
                List.of()), "instructions");
    }
}
