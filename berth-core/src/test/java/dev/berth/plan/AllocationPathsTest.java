package dev.berth.plan;

import dev.berth.admit.Admission;
import dev.berth.admit.Placement;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Facts;
import dev.berth.target.AddressFormat;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.TileSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every allocation path (buffers, fixed regions, tile buffers, descriptors, descriptor tables,
 * instruction streams) reaches the one admission check: each path, given a request that only
 * the admission check's format test can reject, fails with the admission check's own verdict,
 * {@code address-not-encodable} with the same limit ({@code maxAddress} 99 of format
 * {@code f100}) and the facts to check it by hand. And a {@link Placement} can come only from
 * {@link Admission}: it has no constructor outside its package, whose only other class is
 * {@code Admission}.
 */
class AllocationPathsTest {
    private static final AddressFormat F100 = AddressFormat.exclusive("f100", 99);
    private static final AddressFormat WIDE = AddressFormat.exclusive("wide", 1 << 20);

    /** A logical space {@code global} in {@code globalFormat} and a 1 MiB local space {@code local} in {@code localFormat}. */
    private static Target target(AddressFormat globalFormat, AddressFormat localFormat, Optional<Generation> gen) {
        Target.Builder b = Target.builder("paths")
                .space(Space.logical("global", globalFormat).build())
                .space(Space.local("local", localFormat).capacity(1 << 20).build())
                .format(F100);
        gen.ifPresent(b::generation);
        return b.build();
    }

    private static Optional<Generation> descriptors(long bytes, Optional<String> format) {
        return Optional.of(new Generation(Optional.of(new Generation.Descriptor("global", bytes, 1, format)),
                Optional.empty()));
    }

    private static BufferSpec tiled(Target t, String name, long size, int count) {
        return BufferSpec.named(name).size(size).in(t.space("global", "test")).live(0, 0)
                .tile(TileSpec.through(t.space("local", "test"), 1).count(count)).build();
    }

    /** The path fails in the admission check: format f100's limit, naming the reservation. */
    private static void rejectedByTheAdmissionCheck(Target t, Workload w, String reservation) {
        assertThatThrownBy(() -> Planner.plan(t, w, Planner.Options.defaults()))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).as(e.getMessage()).isEqualTo(Category.ADDRESS_NOT_ENCODABLE);
                    Facts f = e.failure().facts();
                    assertThat(f.limit()).as(e.getMessage()).hasValue(99);
                    assertThat(f.limitSource()).as(e.getMessage()).hasValueSatisfying(s -> assertThat(s).contains("f100"));
                    assertThat(f.buffer()).as(e.getMessage()).hasValueSatisfying(b -> assertThat(b).contains(reservation));
                    assertThat(f.reserved()).isPresent();
                    assertThat(f.start()).isPresent();
                    assertThat(Math.addExact(f.start().getAsLong(), f.reserved().getAsLong())).isGreaterThan(99);
                });
    }

    @Test
    void buffers() {
        Target t = target(F100, WIDE, Optional.empty());
        rejectedByTheAdmissionCheck(t, Workload.builder("w")
                .buffer(BufferSpec.named("wide").size(101).in(t.space("global", "test")).live(0, 0).build()).build(), "wide");
    }

    @Test
    void fixedRegions() {
        Target t = target(F100, WIDE, Optional.empty());
        rejectedByTheAdmissionCheck(t, Workload.builder("w")
                .fixed(FixedRegion.at("abi", t.space("global", "test"), 90, 20, Lifetime.of(0, 0))).build(), "abi");
    }

    @Test
    void aFixedRegionIsCalledOneInTheFirstSentenceOfItsFailure() {
        Target t = target(F100, WIDE, Optional.empty());
        Workload format = Workload.builder("w")
                .fixed(FixedRegion.at("abi", t.space("global", "test"), 90, 20, Lifetime.of(0, 0))).build();
        assertThatThrownBy(() -> Planner.plan(t, format, Planner.Options.defaults()))
                .hasMessageStartingWith("address-not-encodable: fixed region abi in space global: ");
        Space small = Space.local("local", WIDE).capacity(1000).build();
        Target c = Target.builder("c").space(small).build();
        Workload capacity = Workload.builder("w").buffer(BufferSpec.named("a").size(8).in(small).live(0, 1).build())
                .fixed(FixedRegion.at("abi", small, 990, 64, Lifetime.of(0, 1))).build();
        assertThatThrownBy(() -> Planner.plan(c, capacity, Planner.Options.defaults()))
                .hasMessageStartingWith("capacity-exceeded: fixed region abi in space local: 64 bytes requested, "
                        + "64 reserved (alignment 1) at start 990, but only 10 bytes are free from there")
                .hasMessageContaining("the fixed region abi sits at 990");
        Workload buffer = Workload.builder("w")
                .buffer(BufferSpec.named("wide").size(101).in(t.space("global", "test")).live(0, 0).build()).build();
        assertThatThrownBy(() -> Planner.plan(t, buffer, Planner.Options.defaults()))
                .hasMessageStartingWith("address-not-encodable: buffer wide in space global: ");
    }

    @Test
    void tileBuffers() {
        // local holds 1 MiB but its format only 100 bytes: one 200-byte tile buffer cannot be encoded
        Target t = target(WIDE, F100, descriptors(1, Optional.empty()));
        rejectedByTheAdmissionCheck(t, Workload.builder("w").buffer(tiled(t, "t", 200, 1)).build(), "t.tilebuf.0");
    }

    @Test
    void descriptors() {
        // the tensor sits below 2^20 in global, but its descriptors carry addresses in format f100
        Target t = target(WIDE, WIDE, descriptors(1, Optional.of("f100")));
        rejectedByTheAdmissionCheck(t, Workload.builder("w").buffer(tiled(t, "t", 300, 3)).build(), "t.tile.");
    }

    @Test
    void descriptorTables() {
        // two tiles, a 30-byte descriptor each: the 60-byte table above the 60-byte tensor passes 100
        Target t = target(F100, WIDE, descriptors(30, Optional.empty()));
        rejectedByTheAdmissionCheck(t, Workload.builder("w").buffer(tiled(t, "t", 60, 2)).build(), "descriptor-table");
    }

    @Test
    void instructionStreams() {
        Target t = target(F100, WIDE, Optional.of(new Generation(Optional.empty(),
                Optional.of(new Generation.Instruction("global", 10, 1)))));
        rejectedByTheAdmissionCheck(t, Workload.builder("w")
                .buffer(BufferSpec.named("a").size(50).in(t.space("global", "test")).live(0, 5).build()).build(),
                "instructions");
    }

    @Test
    void onlyTheAdmissionCheckMakesPlacements() throws Exception {
        for (Constructor<?> c : Placement.class.getDeclaredConstructors()) {
            int m = c.getModifiers();
            assertThat(Modifier.isPublic(m) || Modifier.isProtected(m) || Modifier.isPrivate(m))
                    .as("%s is package-private", c).isFalse();
        }
        assertThat(Placement.class.getModifiers() & Modifier.FINAL).as("Placement is final").isNotZero();
        assertThat(Admission.class.getPackageName()).isEqualTo(Placement.class.getPackageName());
        Path dir = Path.of(Placement.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve(Placement.class.getPackageName().replace('.', '/'));
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".class"))
                    .map(f -> f.replaceAll("\\$.*|\\.class$", "")).distinct().sorted())
                    .as("top-level classes of %s", dir).containsExactly("Admission", "Placement");
        }
    }
}
